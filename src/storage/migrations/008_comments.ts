import { type Kysely } from 'kysely';

/**
 * Comments (issue 25).
 * - `comments`: one row per comment, on a page or a block (`parent_type`, `parent_id`: the
 *   object the comment's discussion is anchored to). A discussion is the comments sharing a
 *   `discussion_id`; it has no row of its own, so a discussion whose last comment is deleted is
 *   gone with it (FACTS.md §10.2: "the discussion is removed too").
 * - `position` orders the comments on one object, oldest first: the listing's keyset is
 *   (position, id), so comments written within one millisecond (or under a fixed test clock)
 *   still list in the order they were written.
 * - `rich_text` is the response's rich text (JSON); `attachments` the response's attachments
 *   with hosted-file references (JSON array); `display_type`/`display_name` what `display_name`
 *   shows, resolved when written. `created_by` is the writing connection's bot user: only that
 *   connection may edit or delete the comment.
 */
// Migrations take Kysely<any>: they describe the schema as it was at their time, not as DB says now.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('discussion_id', 'text', (c) => c.notNull())
    .addColumn('parent_type', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('rich_text', 'text', (c) => c.notNull())
    .addColumn('attachments', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('display_type', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'text', (c) => c.notNull())
    .addColumn('last_edited_time', 'text', (c) => c.notNull())
    .execute();
  // The listing reads one object's comments in keyset order; replies find their discussion.
  await db.schema.createIndex('comments_of_parent').on('comments').columns(['parent_id', 'position', 'id']).execute();
  await db.schema.createIndex('comments_of_discussion').on('comments').columns(['discussion_id']).execute();
}
