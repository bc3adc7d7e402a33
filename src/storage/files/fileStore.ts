import type { Readable } from 'node:stream';

/**
 * Where uploaded bytes live (issue 13). One interface, three backends: files under the data
 * directory (the embedded default), chunks in PostgreSQL (so every instance serves every file),
 * and an S3-compatible object store. Bytes always flow as streams: no backend holds a whole file
 * in memory.
 *
 * Keys are chosen by the caller (src/commands/fileUploads/blobs.ts): `uploads/<upload id>/<random>`,
 * never reused, so a failed write can be deleted without touching another.
 */
export interface FileStore {
  /** `disk`, `database` or `s3`: shown in logs and /readyz. */
  readonly kind: FileStoreKind;

  /**
   * Consumes `source` into `key` and resolves with the byte count once the bytes are durable.
   * When `source` errors (a limit the caller enforces, a client that went away) or the backend
   * fails, the promise rejects with that error and nothing readable remains under `key`.
   */
  write(key: string, source: Readable): Promise<number>;

  /** The bytes under `key`, streamed; the stream errors if the key is absent. */
  read(key: string): Readable;

  /** Removes the keys, written or half-written; absent keys are not an error. */
  delete(keys: readonly string[]): Promise<void>;

  /** Releases clients and handles; the store is unusable afterwards. */
  close(): Promise<void>;
}

export type FileStoreKind = 'disk' | 'database' | 's3';

/** The S3-compatible backend's settings (FOLIO_S3_* variables, README "Configuration"). */
export interface S3Settings {
  bucket: string;
  /** Custom endpoint (MinIO, s3rver, …); null for AWS itself. */
  endpoint: string | null;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** Path-style addressing (`endpoint/bucket/key`), which most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** Prepended to every key, so one bucket can hold several deployments. */
  prefix: string;
}
