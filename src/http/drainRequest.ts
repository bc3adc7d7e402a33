import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';

/** Past this, a client still sending is cut off rather than read to the end. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const DRAIN_TIMEOUT_MS = 30_000;

/**
 * Reads and drops what is left of a request body before an error answer: a client that is still
 * writing (an upload refused part-way) otherwise meets a reset connection and never reads the
 * answer. Bounded in bytes and time; past either the connection is closed.
 */
export async function drainRequest(raw: IncomingMessage): Promise<void> {
  if (raw.readableEnded || raw.destroyed) return;
  raw.unpipe();
  let seen = 0;
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_LIMIT_BYTES) raw.destroy();
  };
  raw.on('data', onData);
  raw.resume();
  const timer = setTimeout(() => raw.destroy(), DRAIN_TIMEOUT_MS);
  try {
    await Promise.race([once(raw, 'end'), once(raw, 'close')]);
  } catch {
    // Destroyed or errored: nothing more to read.
  } finally {
    clearTimeout(timer);
    raw.off('data', onData);
  }
}
