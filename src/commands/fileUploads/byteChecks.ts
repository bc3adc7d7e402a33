import { Transform, pipeline, type Readable, type TransformCallback } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';

/** Bytes file-type needs to recognise every format it knows. */
const SNIFF_BYTES = 4100;

/**
 * `source` with checks applied while it streams, for a FileStore to consume: more than `maxBytes`
 * errors it with `tooLarge()` at the first byte over (nothing past the limit is stored), and the
 * type the first bytes show is reported through `sniffed` (which may throw to refuse them) before
 * any byte goes on. An error of `source` itself ends the returned stream with that error.
 */
export function checkedBytes(source: Readable, checks: { maxBytes: number; tooLarge: () => Error; sniffed: (type: string | null) => void }): Readable {
  let total = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      total += chunk.length;
      callback(total > checks.maxBytes ? checks.tooLarge() : null, chunk);
    },
  });
  let head: Buffer[] | null = [];
  let headBytes = 0;
  const release = async (stream: Transform) => {
    const buffered = Buffer.concat(head!);
    head = null;
    const type = await fileTypeFromBuffer(buffered);
    checks.sniffed(type?.mime ?? null);
    if (buffered.length > 0) stream.push(buffered);
  };
  const sniff = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      if (!head) return callback(null, chunk);
      head.push(chunk);
      headBytes += chunk.length;
      if (headBytes < SNIFF_BYTES) return callback();
      release(this).then(() => callback(), callback);
    },
    flush(callback: TransformCallback) {
      if (!head) return callback();
      release(this).then(() => callback(), callback);
    },
  });
  // pipeline destroys every stream with the first error, so the consumer sees the cause.
  return pipeline(source, limit, sniff, () => undefined);
}
