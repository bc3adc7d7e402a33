// s3rver ships no types; this declares the part test/helpers/s3rver.ts uses (s3rver 3.7, lib/s3rver.js).
// Named apart from s3rver.ts because TypeScript skips a .d.ts that shares a .ts file's name.
declare module 's3rver' {
  import type { Server } from 'node:http';
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    serviceEndpoint?: string;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }

  class S3rver {
    constructor(options?: S3rverOptions);
    /** Creates the configured buckets and listens; resolves with the bound address. */
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    /** Set by run(). */
    httpServer?: Server;
  }

  export = S3rver;
}
