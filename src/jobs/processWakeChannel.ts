import cluster from 'node:cluster';
import type { WakeChannel } from '../storage/wakeChannel.js';

/** The message a server process sends its primary, which passes it to the others (src/cli/serveProcesses.ts). */
export const JOBS_ENQUEUED = 'folio:jobs-enqueued';

export function isJobsEnqueued(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { folio?: unknown }).folio === JOBS_ENQUEUED;
}

/**
 * Between the processes of one `folio serve --processes N` (SQLite has no LISTEN): through the
 * cluster's IPC channel to the primary, which passes the signal on to every other process.
 * Null outside a cluster worker. Wakes within one event-loop turn are sent as one message.
 */
export function processWakeChannel(): WakeChannel | null {
  if (!cluster.isWorker || !process.send) return null;
  let scheduled = false;
  let onMessage: ((message: unknown) => void) | null = null;
  return {
    send() {
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        // The primary gone (it is shutting down): nothing to tell.
        if (process.connected) process.send!({ folio: JOBS_ENQUEUED });
      });
    },
    receive(ring) {
      onMessage = (message) => {
        if (isJobsEnqueued(message)) ring();
      };
      process.on('message', onMessage);
    },
    close: async () => {
      if (onMessage) process.off('message', onMessage);
    },
  };
}
