import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../../context.js';
import type { Db } from '../../storage/db.js';
import type { RunningJob } from '../../domain/jobs.js';
import type { ConnectionRow, WebhookDeliveryRow, WebhookEventRow, WebhookSubscriptionRow } from '../../storage/schema.js';
import type { WebhookApiVersion } from '../../schemas/webhooks.js';
import { isVisibleTo } from '../../auth/access.js';
import { findConnection } from '../../storage/repositories/connections.js';
import { findWorkspace } from '../../storage/repositories/workspaces.js';
import { listIntegrationConnections } from '../../storage/repositories/integrations.js';
import {
  activeIntegrationSubscriptions,
  activeSubscriptions,
  countUndispatched,
  dueDeliveries,
  findSubscription,
  hasPendingDeliveries,
  insertDeliveries,
  type NewWebhookDelivery,
  consumeEvents,
  openDelivery,
  recordAttempt,
  recordDelivered,
  reserveDeliveries,
  tryLockOutbox,
  undispatchedEvents,
  updateDelivery,
} from '../../storage/repositories/webhooks.js';
import { capabilityFor, isAggregated, nextAttemptAt, subscribesTo } from '../../domain/webhooks/deliveryRules.js';
import { mergeAuthors, mergeContentData, signatureOf, type WebhookAuthor, type WebhookPayload } from '../../domain/webhooks/payload.js';
import { postWebhook, type PostOutcome } from '../../net/postWebhook.js';

/** The job kind that turns a workspace's outbox into deliveries and sends them (src/jobs/kinds/webhookDelivery.ts). */
export const WEBHOOK_DELIVERY_JOB = 'webhook_delivery';

/** One job per workspace: every write of it queues this one again if it had ended (recordEvent). */
export const deliveryJobId = (workspaceId: string) => `webhooks:${workspaceId}`;

const FAN_OUT_BATCH = 200;
const SEND_BATCH = 32;
/** Past the request timeout, how long a send holds its deliveries. */
const RESERVATION_MARGIN_MS = 5_000;
/** With no batching window, how long the job waits before looking again for a writer still in flight. */
const MIN_RETRY_MS = 10;

/**
 * The workspaces whose delivery job runs in this process and is not trying to end, per store: a
 * writer here that recorded events under the outbox lock needs no statement to know the job will
 * take them (recordEvent). Cleared before each attempt to end and when the job stops however it
 * stops; a job that lost its lease to another worker here has it cleared by that worker's attempt.
 */
const runningHere = new WeakMap<object, Set<string>>();

function here(ctx: AppContext): Set<string> {
  let workspaces = runningHere.get(ctx.store);
  if (!workspaces) runningHere.set(ctx.store, (workspaces = new Set()));
  return workspaces;
}

/** Whether this process runs the workspace's delivery job and that job is not trying to end. */
export function deliveryRunsHere(ctx: AppContext, workspaceId: string): boolean {
  return runningHere.get(ctx.store)?.has(workspaceId) === true;
}

/** Thrown inside the job's last transaction to roll it back when new events arrived: the job goes on. */
class MoreWork extends Error {}
/** Thrown there when a writer is still in flight (its outbox lock shared): the job waits and tries again. */
class WritersInFlight extends Error {}

/**
 * One workspace's delivery job: fan new outbox events out to the subscriptions that may hear them,
 * send what is due, and wait (by the server's clock, so a test clock moves retries along) while
 * retries are pending. It ends only in a transaction that holds the outbox lock (no writer in
 * flight, on PostgreSQL) and finds no undispatched event, so an event committed meanwhile either is
 * seen or finds the job ended and queues it again (src/storage/repositories/webhooks.ts ensureJob).
 *
 * It works in cycles a batching window apart (FOLIO_WEBHOOK_BATCH_MS): each cycle fans out and
 * sends everything there is, then gathers again. A writer rings the bell only when it queued the
 * job again (recordEvent), never while it runs, so a busy workspace's writes pay for one cycle per
 * window, not for a fan-out, a send and a wake-up beside each next write (docs/benchmarks.md,
 * "webhooks, postgres, write latency").
 */
export async function deliverWebhooks(ctx: AppContext, job: RunningJob): Promise<void> {
  const workspaceId = job.row.subject_id;
  here(ctx).add(workspaceId);
  try {
    await deliverUntilDone(ctx, job, workspaceId);
  } finally {
    here(ctx).delete(workspaceId);
  }
}

async function deliverUntilDone(ctx: AppContext, job: RunningJob, workspaceId: string): Promise<void> {
  for (;;) {
    // A write queued this job (or a restart found it, or the last cycle had work): the writes right behind it go in the same cycle.
    await gather(ctx, job.signal);
    job.signal.throwIfAborted();
    let worked = false;
    for (;;) {
      const fannedOut = await job.write((trx) => fanOut(ctx, trx, workspaceId, FAN_OUT_BATCH));
      if (fannedOut > 0) worked = true;
      if (fannedOut < FAN_OUT_BATCH) break;
    }
    while ((await sendDue(ctx, workspaceId)) > 0) worked = true;
    if (worked) continue;
    if (!(await hasPendingDeliveries(ctx.store.db, workspaceId))) {
      // From here writers read the job's state from the store (recordEvent): it may end.
      here(ctx).delete(workspaceId);
      try {
        await job.write(
          async (trx) => {
            // Every writer that recorded events before this either committed (counted here) or waits for this to commit and finds the job ended.
            if (!(await tryLockOutbox(trx, workspaceId))) throw new WritersInFlight();
            if ((await countUndispatched(trx, workspaceId)) > 0) throw new MoreWork();
          },
          { finish: true },
        );
        return;
      } catch (error) {
        // New events, or a writer about to commit some: the next cycle, one window on, takes them.
        if (error instanceof MoreWork || error instanceof WritersInFlight) {
          here(ctx).add(workspaceId);
          if (ctx.config.webhooks.batchMs === 0) await sleep(MIN_RETRY_MS, undefined, { signal: job.signal }).catch(() => undefined);
          continue;
        }
        throw error;
      }
    }
    await idle(ctx, job.signal);
  }
}

/**
 * Waits while deliveries are pending but none is due: a poll interval, after which the server's
 * clock is read again, or less when the bell rings. Events written meanwhile are fanned out at the
 * latest then (writers do not ring a running job).
 */
async function idle(ctx: AppContext, signal: AbortSignal): Promise<void> {
  const controller = new AbortController();
  const unlisten = ctx.jobs.listen(() => controller.abort());
  const stop = () => controller.abort();
  signal.addEventListener('abort', stop, { once: true });
  await sleep(ctx.config.jobs.pollMs, undefined, { signal: controller.signal }).catch(() => undefined);
  signal.removeEventListener('abort', stop);
  unlisten();
}

/** The batching window (FOLIO_WEBHOOK_BATCH_MS): ended early only when the job is stopped. */
async function gather(ctx: AppContext, signal: AbortSignal): Promise<void> {
  if (ctx.config.webhooks.batchMs > 0 && !signal.aborted) await sleep(ctx.config.webhooks.batchMs, undefined, { signal }).catch(() => undefined);
}

interface Listener {
  subscription: WebhookSubscriptionRow;
  /** Whose sight decides what it hears: its connection, or each of its integration's in the workspace. */
  connections: ConnectionRow[];
}

/** The live connections of an integration in one workspace: an integration's subscription hears what any of them sees. */
async function installedIn(db: Db, integrationId: string, workspaceId: string): Promise<ConnectionRow[]> {
  return (await listIntegrationConnections(db, integrationId)).filter((c) => c.workspace_id === workspaceId);
}

/** Turns up to `limit` undispatched events into deliveries; answers how many events it took. */
async function fanOut(ctx: AppContext, trx: Db, workspaceId: string, limit: number): Promise<number> {
  const events = await undispatchedEvents(trx, workspaceId, limit);
  if (events.length === 0) return 0;
  const listeners: Listener[] = [];
  for (const subscription of await activeSubscriptions(trx, workspaceId)) {
    const connection = subscription.connection_id ? await findConnection(trx, subscription.connection_id) : undefined;
    listeners.push({ subscription, connections: connection ? [connection] : [] });
  }
  for (const subscription of await activeIntegrationSubscriptions(trx, workspaceId)) {
    listeners.push({ subscription, connections: await installedIn(trx, subscription.integration_id ?? '', workspaceId) });
  }
  const at = ctx.clock.now();
  const seen = new Map<string, boolean>();
  // New deliveries are inserted together; an aggregated event first flushes them, since it looks for an open delivery to fold into.
  const fresh: NewWebhookDelivery[] = [];
  for (const event of events) {
    for (const listener of listeners) {
      const { subscription } = listener;
      const types = subscription.event_types === null ? null : (JSON.parse(subscription.event_types) as string[]);
      if (!subscribesTo(types, subscription.api_version as WebhookApiVersion, event.type)) continue;
      if (!(await hears(trx, listener, event, seen))) continue;
      if (isAggregated(event.type)) await insertDeliveries(trx, fresh.splice(0));
      await addDelivery(ctx, trx, subscription, event, at, fresh);
    }
  }
  await insertDeliveries(trx, fresh);
  await consumeEvents(
    trx,
    events.map((e) => e.seq),
  );
  return events.length;
}

/** FACTS.md §10.10.4: events fire only for objects the integration can access, comments only with "comment read". */
async function hears(trx: Db, { connections }: Listener, event: WebhookEventRow, seen: Map<string, boolean>): Promise<boolean> {
  for (const connection of connections) if (await seenBy(trx, connection, event, seen)) return true;
  return false;
}

async function seenBy(trx: Db, connection: ConnectionRow, event: WebhookEventRow, seen: Map<string, boolean>): Promise<boolean> {
  if (connection.revoked_time !== null) return false;
  const capability = capabilityFor(event.type);
  if (capability && !(JSON.parse(connection.capabilities) as string[]).includes(capability)) return false;
  if (event.entity_type === 'file_upload') return event.connection_id === connection.id;
  const data = event.data === null ? {} : (JSON.parse(event.data) as { page_id?: string; parent?: { id?: string } });
  // A comment is seen with its page, a view with its database.
  const objectId = event.entity_type === 'comment' ? data.page_id : event.entity_type === 'view' ? data.parent?.id : event.entity_id;
  if (!objectId) return false;
  const key = `${connection.id}:${objectId}`;
  let visible = seen.get(key);
  if (visible === undefined) {
    visible = await isVisibleTo(trx, connection.id, event.workspace_id, objectId);
    seen.set(key, visible);
  }
  return visible;
}

/** Folds an aggregated event into its open delivery, or adds a new delivery to `fresh` (inserted by the caller). */
async function addDelivery(
  ctx: AppContext,
  trx: Db,
  subscription: WebhookSubscriptionRow,
  event: WebhookEventRow,
  at: Date,
  fresh: NewWebhookDelivery[],
): Promise<void> {
  const authors = JSON.parse(event.authors) as WebhookAuthor[];
  if (isAggregated(event.type)) {
    const open = await openDelivery(trx, subscription.id, event.entity_id, event.type);
    if (open) {
      await updateDelivery(trx, open.id, {
        authors: JSON.stringify(mergeAuthors(JSON.parse(open.authors) as WebhookAuthor[], authors)),
        data: JSON.stringify(mergeContentData(open.data === null ? null : JSON.parse(open.data), event.data === null ? null : JSON.parse(event.data))),
        timestamp: event.timestamp,
        events: open.events + 1,
      });
      return;
    }
  }
  const eventTime = new Date(event.timestamp);
  const due = isAggregated(event.type) ? new Date(eventTime.getTime() + ctx.config.webhooks.aggregationMs) : eventTime;
  fresh.push({
    id: ctx.newId(),
    subscription_id: subscription.id,
    workspace_id: event.workspace_id,
    event_id: event.id,
    event_seq: event.seq,
    type: event.type,
    entity_id: event.entity_id,
    entity_type: event.entity_type,
    authors: event.authors,
    data: event.data,
    timestamp: event.timestamp,
    events: 1,
    state: 'pending',
    attempts: 0,
    next_attempt_time: due.toISOString(),
    response_status: null,
    latency_ms: null,
    last_error: null,
    created_time: at.toISOString(),
    delivered_time: null,
  });
}

/** Sends the deliveries due now, at once across entities and one at a time within one; answers how many it sent. */
async function sendDue(ctx: AppContext, workspaceId: string): Promise<number> {
  const now = ctx.clock.now();
  // Reserved past the request timeout, so no other sender takes them while this one waits for answers.
  const until = new Date(now.getTime() + ctx.config.webhooks.timeoutMs + RESERVATION_MARGIN_MS).toISOString();
  const due = await ctx.store.transaction(async (trx) => {
    const candidates = await dueDeliveries(trx, workspaceId, now.toISOString(), SEND_BATCH);
    const taken = await reserveDeliveries(
      trx,
      candidates.map((d) => d.id),
      now.toISOString(),
      until,
    );
    return candidates.filter((d) => taken.has(d.id));
  });
  if (due.length === 0) return 0;
  const workspace = await findWorkspace(ctx.store.db, workspaceId);
  const subscriptions = new Map<string, { row: WebhookSubscriptionRow; connection: ConnectionRow | undefined } | null>();
  for (const delivery of due) {
    if (subscriptions.has(delivery.subscription_id)) continue;
    const row = await findSubscription(ctx.store.db, delivery.subscription_id);
    if (!row) {
      subscriptions.set(delivery.subscription_id, null);
      continue;
    }
    const connection = row.connection_id
      ? await findConnection(ctx.store.db, row.connection_id)
      : row.integration_id
        ? (await installedIn(ctx.store.db, row.integration_id, workspaceId))[0]
        : undefined;
    subscriptions.set(delivery.subscription_id, { row, connection });
  }
  const outcomes = await Promise.all(
    due.map(async (delivery): Promise<PostOutcome> => {
      const subscription = subscriptions.get(delivery.subscription_id);
      if (!subscription) return { ok: false, status: null, latencyMs: 0, error: 'the subscription was deleted' };
      const payload = payloadOf(delivery, subscription.row, subscription.connection, workspace?.name ?? '');
      const body = JSON.stringify(payload);
      return postWebhook(
        subscription.row.url,
        body,
        { 'x-notion-signature': signatureOf(body, subscription.row.verification_token) },
        ctx.config.webhooks.timeoutMs,
      );
    }),
  );
  const ended = ctx.clock.now();
  // Not fenced on the job's lease: the outcome is this attempt's whoever holds the job now, and
  // recordAttempt writes it only if no other sender recorded the same attempt.
  await ctx.store.transaction(async (trx) => {
    // The usual outcome, every delivery answered 2xx, is one statement: a round trip per delivery ran beside the writes.
    await recordDelivered(
      trx,
      due
        .map((delivery, index) => ({ delivery, outcome: outcomes[index] }))
        .filter(({ outcome }) => outcome.ok)
        .map(({ delivery, outcome }) => ({ id: delivery.id, attemptsBefore: delivery.attempts, status: outcome.status, latencyMs: outcome.latencyMs })),
      ended.toISOString(),
    );
    for (const [index, delivery] of due.entries()) {
      const outcome = outcomes[index];
      if (outcome.ok) continue;
      const attempts = delivery.attempts + 1;
      const base = { attempts, response_status: outcome.status, latency_ms: outcome.latencyMs, last_error: outcome.error };
      const next = nextAttemptAt(attempts, ended);
      await recordAttempt(trx, delivery.id, delivery.attempts, { ...base, state: next ? 'pending' : 'failed', next_attempt_time: next?.toISOString() ?? null });
      const log = { subscription: delivery.subscription_id, delivery: delivery.id, event: delivery.event_id, attempt: attempts, reason: outcome.error };
      if (next) ctx.log.warn({ ...log, next_attempt_time: next.toISOString() }, 'webhook delivery failed; it will be retried');
      else ctx.log.error(log, 'webhook delivery failed for the last time');
    }
  });
  return due.length;
}

/** The service's envelope (FACTS.md §10.10.3); `accessible_by` only for public connections. */
export function payloadOf(
  delivery: WebhookDeliveryRow,
  subscription: WebhookSubscriptionRow,
  connection: ConnectionRow | undefined,
  workspaceName: string,
): WebhookPayload {
  const payload: WebhookPayload = {
    id: delivery.event_id,
    timestamp: delivery.timestamp,
    workspace_id: delivery.workspace_id,
    workspace_name: workspaceName,
    subscription_id: subscription.id,
    integration_id: subscription.integration_id ?? subscription.connection_id ?? '',
    type: delivery.type,
    authors: JSON.parse(delivery.authors) as WebhookAuthor[],
    attempt_number: delivery.attempts + 1,
    api_version: subscription.api_version,
    entity: { id: delivery.entity_id, type: delivery.entity_type },
  };
  if (connection?.kind === 'public' && connection.user_id) {
    payload.accessible_by = [
      { id: connection.user_id, type: 'person' },
      { id: connection.bot_id, type: 'bot' },
    ];
  }
  if (delivery.data !== null) payload.data = JSON.parse(delivery.data);
  return payload;
}
