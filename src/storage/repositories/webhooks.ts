import { sql } from 'kysely';
import type { Db } from '../db.js';
import { dialectOf } from '../dialect.js';
import { fixedStatement } from '../fixedStatement.js';
import type { WebhookDeliveryRow, WebhookDeliveryTable, WebhookEventRow, WebhookSubscriptionRow, WebhookSubscriptionTable } from '../schema.js';
import type { Insertable, Updateable } from 'kysely';

/** Webhook subscriptions, the outbox and deliveries (migration 013). */

/** Advisory lock class of a workspace's outbox (the first key; the second is the workspace id's hash). */
const OUTBOX_LOCK_CLASS = 27;

export async function insertSubscription(db: Db, row: WebhookSubscriptionRow): Promise<void> {
  await db.insertInto('webhook_subscriptions').values(row).execute();
}

export async function findSubscription(db: Db, id: string): Promise<WebhookSubscriptionRow | undefined> {
  return db.selectFrom('webhook_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listSubscriptions(db: Db, afterId: string | null, limit: number): Promise<WebhookSubscriptionRow[]> {
  let query = db.selectFrom('webhook_subscriptions').selectAll();
  if (afterId) query = query.where('id', '>', afterId);
  return query.orderBy('id').limit(limit).execute();
}

export async function activeSubscriptions(db: Db, workspaceId: string): Promise<WebhookSubscriptionRow[]> {
  return db.selectFrom('webhook_subscriptions').selectAll().where('workspace_id', '=', workspaceId).where('status', '=', 'active').orderBy('id').execute();
}

/** The active subscriptions of integrations installed in a workspace (migration 014). */
export async function activeIntegrationSubscriptions(db: Db, workspaceId: string): Promise<WebhookSubscriptionRow[]> {
  return db
    .selectFrom('webhook_subscriptions')
    .selectAll()
    .where('status', '=', 'active')
    .where('integration_id', 'in', (eb) => eb.selectFrom('integration_connections').select('integration_id').where('workspace_id', '=', workspaceId))
    .orderBy('id')
    .execute();
}

/**
 * The subscriptions, pending or active, that may receive events of a workspace: its connections'
 * or those of an integration installed in it; at most one row, with `held` (see insertEventsIfHeard).
 */
function oneListener(db: Db, workspaceId: string) {
  // On PostgreSQL the projection takes the outbox lock: evaluated only for the one row the limit lets through, so no listener, no lock.
  const held =
    dialectOf(db).name === 'postgres' ? sql<string>`pg_advisory_xact_lock_shared(${OUTBOX_LOCK_CLASS}, hashtext(${workspaceId}))::text` : sql<string>`''`;
  return db
    .selectFrom('webhook_subscriptions')
    .select(held.as('held'))
    .where((eb) =>
      eb.or([
        eb('workspace_id', '=', workspaceId),
        eb('integration_id', 'in', eb.selectFrom('integration_connections').select('integration_id').where('workspace_id', '=', workspaceId)),
      ]),
    )
    .limit(1);
}

/** oneListener as SQLite asks it (no lock to take), built once: every write asks it. */
const listenerOnSqlite = fixedStatement((db, args: { workspaceId: string }) => oneListener(db, args.workspaceId));

/** An integration deleted takes its subscriptions and their delivery logs with it. */
export async function deleteIntegrationSubscriptions(db: Db, integrationId: string): Promise<void> {
  const ids = db.selectFrom('webhook_subscriptions').select('id').where('integration_id', '=', integrationId);
  await db.deleteFrom('webhook_deliveries').where('subscription_id', 'in', ids).execute();
  await db.deleteFrom('webhook_subscriptions').where('integration_id', '=', integrationId).execute();
}

export async function updateSubscription(db: Db, id: string, patch: Updateable<WebhookSubscriptionTable>): Promise<void> {
  await db.updateTable('webhook_subscriptions').set(patch).where('id', '=', id).execute();
}

/** A deleted subscription takes its delivery log and what was still to be sent with it. */
export async function deleteSubscription(db: Db, id: string): Promise<boolean> {
  await db.deleteFrom('webhook_deliveries').where('subscription_id', '=', id).execute();
  const result = await db.deleteFrom('webhook_subscriptions').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export interface NewWebhookEvent {
  id: string;
  workspace_id: string;
  type: string;
  entity_id: string;
  entity_type: string;
  connection_id: string | null;
  authors: string;
  data: string | null;
  timestamp: string;
}

/**
 * The events of one write, in one statement, only if a subscription may hear the workspace
 * (oneListener); answers how many it recorded, 0 when nobody listens — a workspace nobody listens
 * to pays for no outbox row and takes no lock on its delivery job. On PostgreSQL the same statement
 * takes the workspace's outbox lock shared, held until the writer commits: writers do not wait for
 * one another, and a delivery job ending (tryLockOutbox) cannot while any of them is in flight.
 * SQLite has one writer at a time and needs none. VALUES columns are named column1… in both stores.
 */
export async function insertEventsIfHeard(db: Db, workspaceId: string, events: readonly NewWebhookEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  // SQLite's one writer makes asking first safe, and the question is cheaper than the insert that
  // would ask it: most workspaces have no listener, and every write records its events.
  if (dialectOf(db).name === 'sqlite' && !(await listenerOnSqlite.first(db, { workspaceId }))) return 0;
  const rows = sql.join(
    events.map(
      (e) => sql`(${e.id}, ${e.workspace_id}, ${e.type}, ${e.entity_id}, ${e.entity_type}, ${e.connection_id}, ${e.authors}, ${e.data}, ${e.timestamp})`,
    ),
  );
  const result = await sql`INSERT INTO webhook_events (id, workspace_id, type, entity_id, entity_type, connection_id, authors, data, timestamp, dispatched)
    SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7, v.column8, v.column9, 0
    FROM (VALUES ${rows}) AS v CROSS JOIN (${oneListener(db, workspaceId)}) AS listener`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Whether a job is queued or running: one that will still look at what commits now. On PostgreSQL a
 * writer reads it in a statement after the one that took the outbox lock, so that its snapshot sees
 * a job that ended while the writer waited for the lock.
 */
export async function jobIsLive(db: Db, id: string): Promise<boolean> {
  const row = await db.selectFrom('jobs').select('state').where('id', '=', id).executeTakeFirst();
  return row?.state === 'queued' || row?.state === 'running';
}

export async function undispatchedEvents(db: Db, workspaceId: string, limit: number): Promise<WebhookEventRow[]> {
  return db.selectFrom('webhook_events').selectAll().where('workspace_id', '=', workspaceId).where('dispatched', '=', 0).orderBy('seq').limit(limit).execute();
}

export async function countUndispatched(db: Db, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('dispatched', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Events turned into deliveries leave the outbox: the deliveries carry all they said, and the table stays small. */
export async function consumeEvents(db: Db, seqs: readonly number[]): Promise<void> {
  if (seqs.length === 0) return;
  await db.deleteFrom('webhook_events').where('seq', 'in', seqs).execute();
}

/** Rows per insert statement: 20 columns each, well inside PostgreSQL's 65,535 parameters. */
const DELIVERY_INSERT_CHUNK = 500;

export type NewWebhookDelivery = Insertable<WebhookDeliveryTable>;

/** A fan-out's new deliveries in as few statements as fit (each a round trip the writes beside it wait on). */
export async function insertDeliveries(db: Db, rows: readonly NewWebhookDelivery[]): Promise<void> {
  for (let start = 0; start < rows.length; start += DELIVERY_INSERT_CHUNK) {
    await db
      .insertInto('webhook_deliveries')
      .values(rows.slice(start, start + DELIVERY_INSERT_CHUNK))
      .execute();
  }
}

/** A delivery not yet attempted that a later event of the same kind may join (aggregation). */
export async function openDelivery(db: Db, subscriptionId: string, entityId: string, type: string): Promise<WebhookDeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .where('entity_id', '=', entityId)
    .where('type', '=', type)
    .where('state', '=', 'pending')
    .where('attempts', '=', 0)
    .executeTakeFirst();
}

export async function updateDelivery(db: Db, id: string, patch: Updateable<WebhookDeliveryTable>): Promise<void> {
  await db.updateTable('webhook_deliveries').set(patch).where('id', '=', id).execute();
}

/**
 * Pending deliveries due by `now` that are first in line for their subscription and entity: one
 * entity's events go out one at a time, in the order they were recorded.
 */
export async function dueDeliveries(db: Db, workspaceId: string, now: string, limit: number): Promise<WebhookDeliveryRow[]> {
  return db
    .selectFrom('webhook_deliveries as d')
    .selectAll('d')
    .where('d.workspace_id', '=', workspaceId)
    .where('d.state', '=', 'pending')
    .where('d.next_attempt_time', '<=', now)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries as e')
            .select(sql.lit(1).as('one'))
            .where('e.workspace_id', '=', workspaceId)
            .where('e.state', '=', 'pending')
            .whereRef('e.subscription_id', '=', 'd.subscription_id')
            .whereRef('e.entity_id', '=', 'd.entity_id')
            .whereRef('e.event_seq', '<', 'd.event_seq'),
        ),
      ),
    )
    .orderBy('d.event_seq')
    .limit(limit)
    .execute();
}

export async function hasPendingDeliveries(db: Db, workspaceId: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('state', '=', 'pending')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listDeliveries(db: Db, subscriptionId: string, afterSeq: number | null, limit: number): Promise<WebhookDeliveryRow[]> {
  let query = db.selectFrom('webhook_deliveries').selectAll().where('subscription_id', '=', subscriptionId);
  if (afterSeq !== null) query = query.where('event_seq', '>', afterSeq);
  return query.orderBy('event_seq').limit(limit).execute();
}

/**
 * Makes sure the workspace's delivery job will run after this transaction commits: inserts it, or
 * queues it again if it had ended. A queued or running one is left as it is. On PostgreSQL the
 * conflict locks its row until commit, so recordEvent calls this only when the job had ended
 * (jobIsLive), under the outbox lock shared (insertEventsIfHeard), which is what keeps a job ending
 * meanwhile from missing this transaction's events.
 */
export async function ensureJob(
  db: Db,
  job: { id: string; kind: string; workspaceId: string; subjectId: string; at: string; runAfter: string; maxAttempts: number },
): Promise<void> {
  await db
    .insertInto('jobs')
    .values({
      id: job.id,
      kind: job.kind,
      workspace_id: job.workspaceId,
      subject_id: job.subjectId,
      payload: '{}',
      progress: '{}',
      state: 'queued',
      attempts: 0,
      max_attempts: job.maxAttempts,
      run_after: job.runAfter,
      lease_until: null,
      worker_id: null,
      last_error: null,
      created_time: job.at,
      finished_time: null,
    })
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet({ state: 'queued', attempts: 0, run_after: job.runAfter, finished_time: null, last_error: null, worker_id: null, lease_until: null })
        .where('jobs.state', 'in', ['done', 'failed']),
    )
    .execute();
}

/** PostgreSQL: the outbox lock exclusive until commit, without waiting; false while a writer holds it shared. */
export async function tryLockOutbox(db: Db, workspaceId: string): Promise<boolean> {
  if (dialectOf(db).name !== 'postgres') return true;
  const { rows } = await sql<{ held: boolean }>`SELECT pg_try_advisory_xact_lock(${OUTBOX_LOCK_CLASS}, hashtext(${workspaceId})) AS held`.execute(db);
  return rows[0]?.held === true;
}

/**
 * Takes deliveries for one send: those still due by `now` get `until` as their next attempt time,
 * so no other worker (another slot after a stall, another instance) sends them meanwhile; answers
 * the ids it took. A sender that dies mid-send leaves them due again at `until`.
 */
export async function reserveDeliveries(db: Db, ids: readonly string[], now: string, until: string): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_time: until })
    .where('id', 'in', ids)
    .where('state', '=', 'pending')
    .where('next_attempt_time', '<=', now)
    .returning('id')
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Records an attempt's outcome unless another sender already recorded this attempt. */
export async function recordAttempt(db: Db, id: string, attemptsBefore: number, patch: Updateable<WebhookDeliveryTable>): Promise<void> {
  await db.updateTable('webhook_deliveries').set(patch).where('id', '=', id).where('attempts', '=', attemptsBefore).execute();
}

/** One send's successful attempts: recordAttempt's update for each, as one statement (each row still only if no other sender recorded it). */
export async function recordDelivered(
  db: Db,
  attempts: readonly { id: string; attemptsBefore: number; status: number | null; latencyMs: number }[],
  deliveredTime: string,
): Promise<void> {
  if (attempts.length === 0) return;
  const byId = (value: (a: (typeof attempts)[number]) => number | null) =>
    sql<number | null>`CASE id ${sql.join(
      attempts.map((a) => sql`WHEN ${a.id} THEN CAST(${value(a)} AS integer)`),
      sql` `,
    )} END`;
  await db
    .updateTable('webhook_deliveries')
    .set({
      state: 'delivered',
      attempts: sql<number>`attempts + 1`,
      response_status: byId((a) => a.status),
      latency_ms: byId((a) => a.latencyMs),
      last_error: null,
      next_attempt_time: null,
      delivered_time: deliveredTime,
    })
    .where((eb) => eb.or(attempts.map((a) => eb.and([eb('id', '=', a.id), eb('attempts', '=', a.attemptsBefore)]))))
    .execute();
}
