import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Carries "a job was enqueued" between the processes that share a store, so a worker in one takes
 * a job another enqueued at once rather than at its next poll. Best effort: a signal lost (the
 * store restarting, a process starting) only leaves the job to the poll, as before.
 */
export interface WakeChannel {
  /** Tells the other processes; calls close together are sent as one. */
  send(): void;
  /** Calls `ring` on every signal another process sends (and `problem` once per outage of the channel). */
  receive(ring: () => void, problem: (error: Error) => void): void;
  close(): Promise<void>;
}

const CHANNEL = 'folio_jobs';
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;

/**
 * PostgreSQL's LISTEN/NOTIFY: NOTIFY goes through the pool, LISTEN holds a connection of its own
 * (opened when something first listens). Each process tags its signals so it does not ring
 * itself twice (its own bell rang already).
 */
export function postgresWakeChannel(pool: pg.Pool, url: string): WakeChannel {
  const self = randomBytes(6).toString('hex');
  let sending = false;
  let again = false;
  let closed = false;
  let listener: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let delay = RECONNECT_MIN_MS;
  /** Said once per outage, not on every attempt. */
  let down = false;

  const send = (): void => {
    if (closed) return;
    if (sending) {
      again = true;
      return;
    }
    sending = true;
    pool
      .query('SELECT pg_notify($1, $2)', [CHANNEL, self])
      .then(
        () => undefined,
        // The store is unreachable: the enqueue failed too, or the poll will find the job.
        () => undefined,
      )
      .finally(() => {
        sending = false;
        if (again) {
          again = false;
          send();
        }
      });
  };

  const listen = (ring: () => void, problem: (error: Error) => void): void => {
    if (closed) return;
    const client = new pg.Client({ connectionString: url });
    listener = client;
    const reconnect = (error: Error) => {
      if (listener !== client) return;
      listener = null;
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      if (closed) return;
      if (!down) problem(error);
      down = true;
      retry = setTimeout(() => {
        retry = null;
        listen(ring, problem);
      }, delay);
      retry.unref();
      delay = Math.min(delay * 2, RECONNECT_MAX_MS);
    };
    client.on('error', reconnect);
    client.on('end', () => reconnect(new Error('the LISTEN connection ended')));
    client.on('notification', (message) => {
      if (message.channel === CHANNEL && message.payload !== self) ring();
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${CHANNEL}`))
      .then(() => {
        delay = RECONNECT_MIN_MS;
        // Jobs enqueued while the channel was down were not signalled: look once now.
        if (down) ring();
        down = false;
      })
      .catch(reconnect);
  };

  return {
    send,
    receive: listen,
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      const client = listener;
      listener = null;
      if (client) await client.end().catch(() => undefined);
    },
  };
}
