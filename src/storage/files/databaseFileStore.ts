import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';
import type { FileStore } from './fileStore.js';

/**
 * node-postgres returns bytea as hex text, a string twice the chunk's size, before making it a
 * Buffer. Strings past 128 KiB go to V8's large-object space, which only a full collection frees:
 * with 1 MiB chunks a 20 MB download left ~40 MB of them behind (test/fileUploads/memory.test.ts).
 * At 48 KiB the text stays in the young generation and is freed within a few chunks; a 100 MB
 * file is ~2,100 rows.
 */
export const CHUNK_BYTES = 48 * 1024;
/** Smaller pieces wait for the next chunk, so a client sending a byte at a time does not make a row per byte. */
const MIN_ROW_BYTES = 16 * 1024;

/**
 * Files as rows of `file_chunks` in the PostgreSQL store, so every instance on that database
 * serves every file with nothing else to run. Each chunk is its own short statement (no
 * transaction held open while a client sends): a failed write deletes its chunks, and one whose
 * process died is found by its `writing` blob row and deleted by the sweeper; readers only ever
 * look up blobs that are `stored`. Every file has at least one chunk (an empty file one empty
 * chunk), so an absent key is told from an empty file.
 */
export function createDatabaseFileStore(db: Kysely<DB>): FileStore {
  const remove = (keys: readonly string[]) => db.deleteFrom('file_chunks').where('key', 'in', keys).execute();

  return {
    kind: 'database',

    async write(key, source) {
      let seq = 0;
      let bytes = 0;
      let pending: Buffer | null = null;
      const insert = (data: Buffer) => db.insertInto('file_chunks').values({ key, seq: seq++, data }).execute();
      try {
        for await (const chunk of source as AsyncIterable<Buffer>) {
          bytes += chunk.length;
          // Rows are slices of what arrives, copied only to join a small remainder to the next
          // chunk: a copy of every byte would double what the collector has to catch up with.
          const pieces: Buffer = pending ? Buffer.concat([pending, chunk]) : chunk;
          pending = null;
          let offset = 0;
          while (pieces.length - offset >= MIN_ROW_BYTES) {
            const take = Math.min(CHUNK_BYTES, pieces.length - offset);
            await insert(pieces.subarray(offset, offset + take));
            offset += take;
          }
          if (offset < pieces.length) pending = pieces.subarray(offset);
        }
        if (pending || seq === 0) await insert(pending ?? Buffer.alloc(0));
      } catch (error) {
        await remove([key]);
        throw error;
      }
      return bytes;
    },

    read(key) {
      async function* chunks(): AsyncGenerator<Buffer> {
        for (let seq = 0; ; seq++) {
          const row = await db.selectFrom('file_chunks').select('data').where('key', '=', key).where('seq', '=', seq).executeTakeFirst();
          if (!row) {
            if (seq === 0) throw new Error(`no stored file under ${key}`);
            return;
          }
          if (row.data.length > 0) yield Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength);
        }
      }
      return Readable.from(chunks(), { objectMode: false });
    },

    async delete(keys) {
      if (keys.length > 0) await remove(keys);
    },

    async close() {},
  };
}
