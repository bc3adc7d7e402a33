/**
 * An S3-compatible server in this process (s3rver, objects as files in a fresh temporary
 * directory) with one empty bucket, for tests of the S3 file store and of a server configured
 * to use it.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import S3rver from 's3rver';

export interface RunningS3rver {
  /** `http://127.0.0.1:<port>`. */
  endpoint: string;
  bucket: string;
  /** The FOLIO_S3_* variables that point Folio at this server and bucket. */
  settingsEnv: Record<string, string>;
  close(): Promise<void>;
}

/** s3rver accepts only its own fixed keys unless told to skip signature checks; these are them. */
const ACCESS_KEY = 'S3RVER';

export async function startS3rver(): Promise<RunningS3rver> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-s3rver-'));
  const bucket = `folio-test-${randomUUID().slice(0, 8)}`;
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  // run() resolves with the listening socket's address, which carries the port chosen for port 0.
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    settingsEnv: {
      FOLIO_S3_BUCKET: bucket,
      FOLIO_S3_ENDPOINT: endpoint,
      FOLIO_S3_REGION: 'us-east-1',
      FOLIO_S3_ACCESS_KEY_ID: ACCESS_KEY,
      FOLIO_S3_SECRET_ACCESS_KEY: ACCESS_KEY,
      FOLIO_S3_FORCE_PATH_STYLE: '1',
    },
    async close() {
      const closed = server.close();
      // close() waits for every connection to end, and the SDK keeps its sockets alive.
      server.httpServer?.closeAllConnections();
      await closed;
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
