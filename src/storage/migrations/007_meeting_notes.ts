import { type Kysely } from 'kysely';

/**
 * Meeting notes (issue 14).
 * - `jobs`: durable background work. A job is `queued` until a worker claims it (`running`, with
 *   `worker_id` and a lease it renews by heartbeat), then `done` or `failed`. A running job whose
 *   lease ran out belongs to a worker that died: the next claim takes it over
 *   (src/storage/repositories/jobs.ts). `attempts` counts claims, so a job whose worker keeps
 *   dying still ends. `progress` is the job's checkpoint (JSON): what it already wrote, so a
 *   retry resumes instead of repeating (src/commands/meetingNotes/processMeetingNote.ts).
 * - `workspaces.meeting_notes_enabled`: the operator's switch for AI meeting notes (default on);
 *   `workspaces.ai_credits`: credits left, null when the operator set no limit.
 * - `connections.ai_credit_limit` / `ai_credits_used`: a connection's own cap and what it spent.
 * - `users.meeting_notes_enabled` (from 001) now defaults to on, as the issue asks.
 */
// Migrations take Kysely<any>: they describe the schema as it was at their time, not as DB says now.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('progress', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_after', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('worker_id', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_time', 'text', (c) => c.notNull())
    .addColumn('finished_time', 'text')
    .execute();
  // Claims read queued jobs by due time and running ones by lease; both through one index each.
  await db.schema.createIndex('jobs_due').on('jobs').columns(['state', 'run_after']).execute();
  await db.schema.createIndex('jobs_by_lease').on('jobs').columns(['state', 'lease_until']).execute();
  await db.schema.createIndex('jobs_of_subject').on('jobs').columns(['subject_id']).execute();

  await db.schema
    .alterTable('workspaces')
    .addColumn('meeting_notes_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('workspaces').addColumn('ai_credits', 'bigint').execute();
  await db.schema.alterTable('connections').addColumn('ai_credit_limit', 'bigint').execute();
  await db.schema
    .alterTable('connections')
    .addColumn('ai_credits_used', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
