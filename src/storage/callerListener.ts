import pg from 'pg';
import { CALLER_CHANNEL } from './dialect.js';

/** What the listener tells the caller cache. */
export interface CallerListenerEvents {
  /** A writer committed a change to what some token resolves to (callerChanges.ts). */
  changed(): void;
  /** LISTEN is in place (true), or its connection was lost and notices may be missed (false). */
  listening(on: boolean): void;
}

/** Shown in pg_stat_activity, so an operator (and a test) can tell this connection from the pool's. */
export const CALLER_LISTENER_NAME = 'folio caller listener';

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;

/**
 * Holds one connection of its own (outside the pool: a pooled client would be handed back and its
 * LISTEN lost) that listens for caller changes. When it drops, the cache is told at once and the
 * listener reconnects, backing off from 0.1 s to 5 s; the cache answers from the store meanwhile.
 * The promise settles after the first attempt, whether it succeeded or not.
 */
export async function listenForCallerChanges(url: string, events: CallerListenerEvents): Promise<{ close(): Promise<void> }> {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  let delay = FIRST_RETRY_MS;

  const connect = async (): Promise<void> => {
    const attempt = new pg.Client({ connectionString: url, application_name: CALLER_LISTENER_NAME, keepAlive: true });
    client = attempt;
    let up = false;
    const lost = () => {
      if (client !== attempt) return;
      client = null;
      if (up) events.listening(false);
      attempt.end().catch(() => undefined);
      if (closed) return;
      retry = setTimeout(() => {
        retry = null;
        void connect();
      }, delay);
      retry.unref();
      delay = Math.min(delay * 2, LAST_RETRY_MS);
    };
    attempt.on('error', lost);
    attempt.on('end', lost);
    attempt.on('notification', () => events.changed());
    try {
      await attempt.connect();
      await attempt.query(`LISTEN ${CALLER_CHANNEL}`);
    } catch {
      lost();
      return;
    }
    if (client !== attempt) return;
    up = true;
    delay = FIRST_RETRY_MS;
    events.listening(true);
  };

  await connect();
  return {
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      const open = client;
      client = null;
      if (open) await open.end().catch(() => undefined);
    },
  };
}
