import { type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * File uploads (issue 13).
 * - `file_uploads`: one row per upload, owned by the connection that created it. `expiry_time`
 *   is creation + 1 hour until the upload is first attached, then null (FACTS.md §8).
 *   `content_length` reaches 5 GiB, past a 32-bit integer: bigint (SQLite's INTEGER is 64-bit).
 * - `file_blobs`: the stored pieces of an upload (a single-part file, a part of a multi-part one,
 *   an imported file). A row is written as `writing` before its bytes and becomes `stored` with
 *   its part number after them, so bytes whose send failed or whose process died are always
 *   findable, and the sweeper deletes them (src/commands/fileUploads/sweepFileUploads.ts).
 *   (upload_id, part_number) is unique: of two sends of one part, one wins. NULLs (a blob still
 *   writing) never collide in either store.
 * - `file_chunks`: the database backend's bytes (src/storage/files/databaseFileStore.ts), in
 *   chunks of at most 1 MiB so neither a write nor a read holds a file in memory.
 * - `workspaces.max_file_upload_bytes`: the operator's per-workspace limit; null is the
 *   server's default (FOLIO_MAX_FILE_UPLOAD_BYTES).
 */
// Migrations take Kysely<any>: they describe the schema as it was at their time, not as DB says now.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const bytes = dialectOf(db).name === 'postgres' ? 'bytea' : 'blob';
  await db.schema.alterTable('workspaces').addColumn('max_file_upload_bytes', 'bigint').execute();

  await db.schema
    .createTable('file_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('connection_id', 'text', (c) => c.notNull().references('connections.id'))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'text', (c) => c.notNull())
    .addColumn('last_edited_time', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('filename', 'text')
    .addColumn('content_type', 'text')
    .addColumn('content_length', 'bigint')
    .addColumn('number_of_parts', 'integer')
    .addColumn('expiry_time', 'text')
    .addColumn('external_url', 'text')
    .addColumn('import_result', 'text')
    .execute();
  await db.schema.createIndex('file_uploads_of_connection').on('file_uploads').columns(['connection_id', 'created_time', 'id']).execute();
  await db.schema.createIndex('file_uploads_by_expiry').on('file_uploads').columns(['expiry_time']).execute();

  await db.schema
    .createTable('file_blobs')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('upload_id', 'text', (c) => c.notNull())
    .addColumn('part_number', 'integer')
    .addColumn('size', 'bigint')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_time', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_blobs_of_upload').unique().on('file_blobs').columns(['upload_id', 'part_number']).execute();
  await db.schema.createIndex('file_blobs_by_state').on('file_blobs').columns(['state', 'created_time']).execute();

  await db.schema
    .createTable('file_chunks')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint('file_chunks_pk', ['key', 'seq'])
    .execute();
}
