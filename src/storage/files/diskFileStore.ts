import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { FileStore } from './fileStore.js';

const PARTIAL = '.partial';

/**
 * Files under `<data dir>/files`, the embedded store's backend. A write goes to `<key>.partial`,
 * is flushed to the disk, then renamed: a reader never sees a file that is half there, and a
 * process that dies mid-write leaves only a `.partial` that the sweeper's delete removes.
 */
export function createDiskFileStore(dataDir: string): FileStore {
  const root = path.join(dataDir, 'files');
  const locate = (key: string): string => {
    // Keys are the server's own (uploads/<uuid>/<random>); this refuses anything else outright.
    if (!/^[A-Za-z0-9/_-]+$/.test(key) || key.includes('//') || key.startsWith('/')) throw new Error(`unsafe file key: ${key}`);
    return path.join(root, key);
  };

  return {
    kind: 'disk',

    async write(key, source) {
      const target = locate(key);
      const partial = target + PARTIAL;
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      const sink = fs.createWriteStream(partial);
      try {
        await pipeline(source, sink);
        const handle = await fs.promises.open(partial, 'r+');
        try {
          // A 200 means the bytes survive a power cut, as SQLite's synchronous=FULL does for rows.
          await handle.datasync();
        } finally {
          await handle.close();
        }
        await fs.promises.rename(partial, target);
      } catch (error) {
        await fs.promises.rm(partial, { force: true });
        throw error;
      }
      return sink.bytesWritten;
    },

    read(key: string): Readable {
      return fs.createReadStream(locate(key));
    },

    async delete(keys) {
      for (const key of keys) {
        const target = locate(key);
        await fs.promises.rm(target, { force: true });
        await fs.promises.rm(target + PARTIAL, { force: true });
        // The upload's directory goes with its last file; a concurrent write recreates it.
        await fs.promises.rmdir(path.dirname(target)).catch(() => undefined);
      }
    },

    async close() {},
  };
}
