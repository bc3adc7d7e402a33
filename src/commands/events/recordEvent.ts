import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { WebhookEventType } from '../../schemas/webhooks.js';
import { ensureJob, insertEventsIfHeard, jobIsLive } from '../../storage/repositories/webhooks.js';
import { WEBHOOK_DELIVERY_JOB, deliveryJobId, deliveryRunsHere } from '../webhooks/deliveryJob.js';

/** Who caused the events: a request's caller, or the connection a job works for. */
export type EventSource = Pick<Caller, 'workspaceId' | 'connectionId' | 'botId'>;

export interface RecordedEvent {
  type: WebhookEventType;
  entity: { id: string; type: 'page' | 'database' | 'data_source' | 'block' | 'comment' | 'file_upload' | 'view' };
  /** The event's `data` (FACTS.md §10.10.4); omitted for types that carry none. */
  data?: Record<string, unknown>;
}

/**
 * The transactional outbox (../shared/STYLE.md "Events are written where the write is"): a write
 * command calls this inside its own transaction, so the event commits with the write or not at
 * all, and the workspace's delivery job is due once it does. A workspace no subscription can
 * hear records nothing. The author is the caller's bot: every
 * write through the API is made by an integration.
 */
export async function recordEvent(ctx: AppContext, trx: Db, caller: EventSource, at: string, ...events: RecordedEvent[]): Promise<void> {
  if (events.length === 0) return;
  // A subscription created concurrently misses only events from before it existed, as it should.
  // From here to commit the workspace's delivery job cannot end unseen (deliveryJob.ts); writers do not queue behind each other.
  const authors = JSON.stringify([{ id: caller.botId, type: 'bot' }]);
  const recorded = await insertEventsIfHeard(
    trx,
    caller.workspaceId,
    events.map((event) => ({
      id: ctx.newId(),
      workspace_id: caller.workspaceId,
      type: event.type,
      entity_id: event.entity.id,
      entity_type: event.entity.type,
      connection_id: caller.connectionId,
      authors,
      data: event.data === undefined ? null : JSON.stringify(event.data),
      timestamp: at,
    })),
  );
  if (recorded === 0) return;
  // The job runs in this process and is not ending: it takes these events in its next cycle, and
  // cannot end before this commits (the outbox lock, above). No statement needed to know it.
  if (deliveryRunsHere(ctx, caller.workspaceId)) return;
  // Job scheduling runs on the system clock (src/worker/jobWorker.ts), the events on the server's.
  const now = new Date().toISOString();
  // A queued or running job will see these events (its next cycle, src/commands/webhooks/deliveryJob.ts):
  // only an ended one needs its row written (and locked), and the workers rung. A ring per write
  // woke every idle worker slot to claim and sent a NOTIFY beside each next write (docs/benchmarks.md,
  // "webhooks, postgres, write latency").
  if (await jobIsLive(trx, deliveryJobId(caller.workspaceId))) return;
  await ensureJob(trx, {
    id: deliveryJobId(caller.workspaceId),
    kind: WEBHOOK_DELIVERY_JOB,
    workspaceId: caller.workspaceId,
    subjectId: caller.workspaceId,
    at: now,
    runAfter: now,
    maxAttempts: 100,
  });
  // Rung on the next turn: on SQLite the worker's claim queues behind this transaction on the one
  // connection, so it finds the job committed; elsewhere a missed ring is caught by polling.
  setImmediate(() => ctx.jobs.wake());
}
