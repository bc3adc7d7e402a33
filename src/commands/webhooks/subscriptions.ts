import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors/registry.js';
import { invalidField, invalidFieldBare, missingField } from '../../errors/validationFailure.js';
import { parseIdParam } from '../../ids/ids.js';
import { findConnection } from '../../storage/repositories/connections.js';
import { findIntegration, listIntegrationConnections } from '../../storage/repositories/integrations.js';
import { findWorkspace } from '../../storage/repositories/workspaces.js';
import {
  deleteSubscription,
  findSubscription,
  insertSubscription,
  listDeliveries,
  listSubscriptions,
  updateSubscription,
} from '../../storage/repositories/webhooks.js';
import type { WebhookSubscriptionRow } from '../../storage/schema.js';
import type { AdminListOptions } from '../../schemas/admin.js';
import type { CreateWebhookInput, UpdateWebhookInput, WebhookEventType } from '../../schemas/webhooks.js';
import { adminListPage } from '../admin/adminListPage.js';
import { enqueueHandshake } from './handshake.js';
import { sampleEvent } from '../../domain/webhooks/sampleEvents.js';
import { signatureOf, type WebhookPayload, type WebhookTestResult } from '../../domain/webhooks/payload.js';
import { postWebhook } from '../../net/postWebhook.js';

/** The admin plane's not-found for a subscription (it sees every one). */
function subscriptionNotFound(id: string): ApiError {
  return new ApiError('object_not_found', `Could not find webhook subscription with ID: ${id}.`);
}

/** Receivers are the operator's choice: any http(s) URL, loopback and private addresses included (issue 27 item 5). */
function checkUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidFieldBare(['url'], 'should be an absolute http or https URL', raw);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidFieldBare(['url'], 'should be an http or https URL', raw);
  if (url.username || url.password) throw invalidFieldBare(['url'], 'should not carry credentials', raw);
  return url.toString();
}

/** `secret_` and 43 characters, the shape the service's handshake shows (FACTS.md §10.10.1). */
const newVerificationToken = () => `secret_${randomBytes(32).toString('base64url')}`;

/** Who a new subscription listens for: one connection (its workspace), or a public integration (every workspace it is installed in). */
async function listenerOf(ctx: AppContext, input: CreateWebhookInput) {
  if (input.connection_id !== undefined && input.integration_id !== undefined) {
    throw invalidFieldBare(['integration_id'], 'should not be given with connection_id (a subscription is for one or the other)', input.integration_id);
  }
  if (input.integration_id !== undefined) {
    const integrationId = parseIdParam(input.integration_id, 'integration_id');
    if (!(await findIntegration(ctx.store.db, integrationId)))
      throw invalidFieldBare(['integration_id'], 'should be a registered integration', input.integration_id);
    return { workspace_id: null, connection_id: null, integration_id: integrationId };
  }
  if (input.connection_id === undefined) throw missingField(['connection_id']);
  const connectionId = parseIdParam(input.connection_id, 'connection_id');
  const connection = await findConnection(ctx.store.db, connectionId);
  if (!connection || connection.revoked_time !== null) throw invalidFieldBare(['connection_id'], 'should be a live connection', input.connection_id);
  return { workspace_id: connection.workspace_id, connection_id: connection.id, integration_id: null };
}

export async function createSubscription(ctx: AppContext, input: CreateWebhookInput): Promise<WebhookSubscriptionRow> {
  const url = checkUrl(input.url);
  const listener = await listenerOf(ctx, input);
  const row: WebhookSubscriptionRow = {
    id: ctx.newId(),
    ...listener,
    url,
    event_types: input.event_types === undefined ? null : JSON.stringify(input.event_types),
    api_version: input.api_version ?? '2026-03-11',
    status: 'pending',
    verification_token: newVerificationToken(),
    created_time: ctx.clock.now().toISOString(),
    verified_time: null,
  };
  await ctx.store.transaction(async (trx) => {
    await insertSubscription(trx, row);
    await enqueueHandshake(ctx, trx, row);
  });
  ctx.jobs.wake();
  return row;
}

export async function getSubscription(ctx: AppContext, id: string): Promise<WebhookSubscriptionRow> {
  const row = await findSubscription(ctx.store.db, id);
  if (!row) throw subscriptionNotFound(id);
  return row;
}

export async function listSubscriptionsPage(ctx: AppContext, options: AdminListOptions) {
  return adminListPage(
    'admin-webhooks',
    options,
    (after, limit) => listSubscriptions(ctx.store.db, after, limit),
    (row) => row.id,
  );
}

/** Event types change any time; the URL only before verification (FACTS.md §10.10.1), and a new URL gets its own handshake. */
export async function changeSubscription(ctx: AppContext, id: string, input: UpdateWebhookInput): Promise<WebhookSubscriptionRow> {
  const url = input.url === undefined ? undefined : checkUrl(input.url);
  const changed = await ctx.store.transaction(async (trx) => {
    const row = await findSubscription(trx, id);
    if (!row) throw subscriptionNotFound(id);
    if (url !== undefined && row.status !== 'pending' && url !== row.url) {
      throw invalidFieldBare(['url'], 'should not change after the subscription was verified (delete it and create another)', input.url);
    }
    const patch = {
      ...(input.event_types === undefined ? {} : { event_types: input.event_types === null ? null : JSON.stringify(input.event_types) }),
      ...(url === undefined || url === row.url ? {} : { url }),
    };
    if (Object.keys(patch).length > 0) await updateSubscription(trx, id, patch);
    if (patch.url !== undefined) await enqueueHandshake(ctx, trx, row);
    return { ...row, ...patch };
  });
  ctx.jobs.wake();
  return changed;
}

export async function removeSubscription(ctx: AppContext, id: string): Promise<void> {
  const removed = await ctx.store.transaction((trx) => deleteSubscription(trx, id));
  if (!removed) throw subscriptionNotFound(id);
}

/** The token the handshake carried activates the subscription; any other is refused, naming the field. */
export async function verifySubscription(ctx: AppContext, id: string, token: string): Promise<WebhookSubscriptionRow> {
  return ctx.store.transaction(async (trx) => {
    const row = await findSubscription(trx, id);
    if (!row) throw subscriptionNotFound(id);
    const given = Buffer.from(token);
    const expected = Buffer.from(row.verification_token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw invalidField(['verification_token'], 'should be the token the handshake sent to the subscription URL', '(redacted)');
    }
    if (row.status === 'active') return row;
    const at = ctx.clock.now().toISOString();
    await updateSubscription(trx, id, { status: 'active', verified_time: at });
    return { ...row, status: 'active', verified_time: at };
  });
}

export async function listDeliveriesPage(ctx: AppContext, id: string, options: AdminListOptions) {
  await getSubscription(ctx, id);
  return adminListPage(
    `admin-webhook-deliveries:${id}`,
    options,
    (after, limit) => listDeliveries(ctx.store.db, id, after === null ? null : Number(after), limit),
    (row) => String(row.event_seq),
  );
}

/** A well-formed, signed sample of `type` sent now (issue 27 item 7), whatever the subscription's state and event types. */
export async function sendTestEvent(ctx: AppContext, id: string, type: WebhookEventType): Promise<WebhookTestResult> {
  const row = await getSubscription(ctx, id);
  // An integration's sample comes from the first workspace it is installed in, if any.
  const connection = row.connection_id
    ? await findConnection(ctx.store.db, row.connection_id)
    : row.integration_id
      ? (await listIntegrationConnections(ctx.store.db, row.integration_id))[0]
      : undefined;
  const workspaceId = row.workspace_id ?? connection?.workspace_id ?? '';
  const workspace = workspaceId ? await findWorkspace(ctx.store.db, workspaceId) : undefined;
  const sample = sampleEvent(type, ctx.newId);
  const payload: WebhookPayload = {
    id: ctx.newId(),
    timestamp: ctx.clock.now().toISOString(),
    workspace_id: workspaceId,
    workspace_name: workspace?.name ?? '',
    subscription_id: row.id,
    integration_id: row.integration_id ?? row.connection_id ?? '',
    type,
    authors: [{ id: connection?.bot_id ?? ctx.newId(), type: 'bot' }],
    attempt_number: 1,
    api_version: row.api_version,
    entity: sample.entity,
    ...(sample.data === undefined ? {} : { data: sample.data }),
  };
  const body = JSON.stringify(payload);
  const outcome = await postWebhook(row.url, body, { 'x-notion-signature': signatureOf(body, row.verification_token) }, ctx.config.webhooks.timeoutMs);
  return { type, eventId: payload.id, delivered: outcome.ok, status: outcome.status, latencyMs: outcome.latencyMs, error: outcome.error };
}
