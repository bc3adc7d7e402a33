import { PassThrough, Readable, pipeline } from 'node:stream';
import { AbortMultipartUploadCommand, DeleteObjectsCommand, DeleteObjectCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { FileStore, S3Settings } from './fileStore.js';

/**
 * S3's smallest part. Memory per write follows from it and not from the file's size: lib-storage's
 * chunker keeps the gathered chunks, their concatenation and the previous concatenation's tail
 * alive while a part is sent, so about three parts (15 MiB) are live and 25 MiB at the peak, for
 * 200 MiB and 1,000 MiB files alike (measured with s3rver in another process, gc forced).
 */
const PART_SIZE = 5 * 1024 * 1024;

/** DeleteObjects takes at most 1,000 keys a request (S3 API reference, DeleteObjects). */
const DELETE_BATCH = 1000;

/** The backend that keeps each file as one object in an S3-compatible bucket, under `prefix + key`. */
export function createS3FileStore(settings: S3Settings): FileStore {
  const { bucket, prefix } = settings;
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint === null ? {} : { endpoint: settings.endpoint }),
    // Without keys the SDK's own chain applies (environment, instance role, …).
    ...(settings.accessKeyId !== null && settings.secretAccessKey !== null
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
    // Since 3.729 the SDK adds a CRC32 to every request it can (aws/aws-cli#9214), and many
    // S3-compatible servers predate that: s3rver stores a streamed body's aws-chunked frames as the
    // object ("c\r\nhello stream\r\n0\r\nx-amz-checksum-crc32:…" read back), others refuse the
    // x-amz-sdk-checksum-algorithm header the upload adds to CreateMultipartUpload. Upload sends
    // buffers, which s3rver happens to survive, but nothing here needs more than S3 requires.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  const objectKey = (key: string) => prefix + key;

  /**
   * Best effort: a multipart upload that was never completed leaves no object, only parts that
   * cost storage, and not every server can abort one (s3rver answers 405), so failing here must
   * not hide why the write failed.
   */
  const abandon = async (key: string, uploadId: string | undefined) => {
    const attempts: Promise<unknown>[] = [
      // The write may have failed after the object landed (the answer to CompleteMultipartUpload
      // or PutObject lost on the way back); keys are never reused, so deleting it is safe.
      client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) })),
    ];
    if (uploadId !== undefined) attempts.push(client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: objectKey(key), UploadId: uploadId })));
    await Promise.allSettled(attempts);
  };

  return {
    kind: 's3',

    async write(key, source) {
      let bytes = 0;
      let sourceFailed = false;
      let sourceError: unknown;
      async function* counted() {
        let awaitingSource = true;
        try {
          for await (const chunk of source as AsyncIterable<Buffer | string>) {
            awaitingSource = false;
            const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
            bytes += buffer.byteLength;
            yield buffer;
            awaitingSource = true;
          }
        } catch (error) {
          // An error can also be thrown in at `yield`: when the upload fails, tearing down its
          // body throws an AbortError in here. Only what the source itself threw is the source's.
          if (awaitingSource) {
            sourceFailed = true;
            sourceError = error;
          }
          throw error;
        }
      }
      // Byte mode, so read-ahead is bounded by the 16 KiB high-water mark and not by a count of
      // chunks of any size; the upload pulls only when it wants the next bytes.
      const body = Readable.from(counted(), { objectMode: false });
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: objectKey(key), Body: body },
        partSize: PART_SIZE,
        // One part in flight, so memory is bounded by the part size (see PART_SIZE).
        // `leavePartsOnError` because the upload's own abort, when it fails, replaces the error it
        // was cleaning up after; `abandon` aborts instead and keeps the cause.
        queueSize: 1,
        leavePartsOnError: true,
      });
      try {
        await upload.done();
      } catch (error) {
        // Ending the body ends `counted`, which releases the source when the backend failed.
        body.destroy();
        await abandon(key, upload.uploadId);
        // The caller enforces its limits by erroring the source and recognises its own error.
        throw sourceFailed ? sourceError : error;
      }
      return bytes;
    },

    read(key) {
      const out = new PassThrough();
      const request = new AbortController();
      let answered = false;
      // A reader that goes away before the object's headers arrive should not leave the request open.
      out.once('close', () => {
        if (!answered) request.abort();
      });
      client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }), { abortSignal: request.signal }).then(
        (response) => {
          answered = true;
          const body = response.Body;
          if (!(body instanceof Readable)) {
            out.destroy(new Error(`GetObject for ${objectKey(key)} answered without a Node stream`));
            return;
          }
          // pipeline forwards the body's errors to `out`, and frees the connection when the reader
          // destroys `out` early; its callback has nothing left to do.
          pipeline(body, out, () => {});
        },
        (error: unknown) => {
          answered = true;
          out.destroy(error instanceof Error ? error : new Error(String(error)));
        },
      );
      return out;
    },

    async delete(keys) {
      for (let start = 0; start < keys.length; start += DELETE_BATCH) {
        const batch = keys.slice(start, start + DELETE_BATCH);
        // S3 reports an absent key as deleted, so only real failures come back in Errors.
        const result = await client.send(
          new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((key) => ({ Key: objectKey(key) })), Quiet: true } }),
        );
        const failed = result.Errors ?? [];
        if (failed.length > 0) {
          const first = failed[0];
          throw new Error(`could not delete ${failed.length} object(s) from ${bucket}, first ${first.Key}: ${first.Code} ${first.Message}`);
        }
      }
    },

    async close() {
      client.destroy();
    },
  };
}
