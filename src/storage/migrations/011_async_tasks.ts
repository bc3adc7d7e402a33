import { type Kysely } from 'kysely';

/**
 * Async tasks (issue 25 item 7): a request sent with `allow_async: true` is stored here and run
 * by an `async_task` job (src/jobs/kinds/asyncTask.ts). The row keeps what the job needs to run
 * the request again as its caller (the connection, the operation, the checked request) and what
 * polling shows once it ended (`result` or `error`, JSON). While it has not ended, its status is
 * read from its job (queued, running, retrying), so the two never disagree.
 *
 * The meeting-notes query (issue 25 item 8) reads meeting-notes blocks by type and workspace.
 */
// Migrations take Kysely<any>: they describe the schema as it was at their time, not as DB says now.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('async_tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('created_time', 'text', (c) => c.notNull())
    .addColumn('completed_time', 'text')
    .execute();
  // Expired tasks are removed by completion time.
  await db.schema.createIndex('async_tasks_completed').on('async_tasks').columns(['completed_time']).execute();
  // The meeting-notes query (item 8) reads a workspace's meeting-notes blocks: one index range.
  await db.schema.createIndex('objects_meeting_notes').on('objects').columns(['type', 'workspace_id']).execute();
}
