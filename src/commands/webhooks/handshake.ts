import type { AppContext } from '../../context.js';
import type { Db } from '../../storage/db.js';
import type { RunningJob } from '../../domain/jobs.js';
import { enqueueJob } from '../../storage/repositories/jobs.js';
import { findSubscription } from '../../storage/repositories/webhooks.js';
import { postWebhook } from '../../net/postWebhook.js';

export const WEBHOOK_HANDSHAKE_JOB = 'webhook_handshake';
/** With the worker's backoff (FOLIO_JOB_RETRY_MS doubling, at most five minutes apart): about half an hour of tries. */
const HANDSHAKE_MAX_ATTEMPTS = 10;

/** Queues the one-time `{verification_token}` POST (FACTS.md §10.10.1) in the caller's transaction. */
export async function enqueueHandshake(ctx: AppContext, trx: Db, subscription: { id: string; workspace_id: string | null }): Promise<void> {
  await enqueueJob(trx, {
    id: ctx.newId(),
    kind: WEBHOOK_HANDSHAKE_JOB,
    // An integration's subscription belongs to no one workspace; the job's workspace is only a label.
    workspaceId: subscription.workspace_id ?? '',
    subjectId: subscription.id,
    payload: {},
    maxAttempts: HANDSHAKE_MAX_ATTEMPTS,
    // Jobs run on the system clock, whatever the test clock says (docs/decisions.md).
    at: new Date().toISOString(),
  });
}

/**
 * Sends the handshake. A receiver that is down or answers non-2xx fails the attempt and the worker
 * retries it (logged); a subscription deleted, verified or moved to another URL meanwhile needs none.
 * Unsigned: the receiver has no token to check a signature with yet (FACTS.md §10.10.1).
 */
export async function sendHandshake(ctx: AppContext, job: RunningJob): Promise<void> {
  const subscription = await findSubscription(ctx.store.db, job.row.subject_id);
  if (!subscription || subscription.status !== 'pending') return;
  const outcome = await postWebhook(
    subscription.url,
    JSON.stringify({ verification_token: subscription.verification_token }),
    {},
    ctx.config.webhooks.timeoutMs,
  );
  if (!outcome.ok) throw new Error(`webhook handshake to ${subscription.url}: ${outcome.error}`);
}
