import type { Store } from '../createStore.js';
import type { FileStore, S3Settings } from './fileStore.js';
import { createDiskFileStore } from './diskFileStore.js';
import { createDatabaseFileStore } from './databaseFileStore.js';

/**
 * The backend follows the store unless an S3 bucket is configured: SQLite keeps files beside its
 * database file (one machine), PostgreSQL keeps them in the database, so every instance on it
 * serves every file with nothing else to run (docs/decisions.md "File storage").
 * The S3 client is loaded only when a bucket is configured: it is the heaviest module the server
 * would otherwise load at start, and every `folio admin` call pays for what start loads.
 */
export async function createFileStore(store: Store, options: { dataDir: string; s3: S3Settings | null }): Promise<FileStore> {
  if (options.s3) return (await import('./s3FileStore.js')).createS3FileStore(options.s3);
  return store.dialect.name === 'postgres' ? createDatabaseFileStore(store.db) : createDiskFileStore(options.dataDir);
}
