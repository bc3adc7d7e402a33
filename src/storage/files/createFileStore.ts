import type { Store } from '../createStore.js';
import type { FileStore, S3Settings } from './fileStore.js';
import { createDiskFileStore } from './diskFileStore.js';
import { createDatabaseFileStore } from './databaseFileStore.js';
import { createS3FileStore } from './s3FileStore.js';

/**
 * The backend follows the store unless an S3 bucket is configured: SQLite keeps files beside its
 * database file (one machine), PostgreSQL keeps them in the database, so every instance on it
 * serves every file with nothing else to run (docs/decisions.md "File storage").
 */
export function createFileStore(store: Store, options: { dataDir: string; s3: S3Settings | null }): FileStore {
  if (options.s3) return createS3FileStore(options.s3);
  return store.dialect.name === 'postgres' ? createDatabaseFileStore(store.db) : createDiskFileStore(options.dataDir);
}
