import type { Static } from 'typebox';
import type { WebhookDeliveryRow, WebhookSubscriptionRow } from '../storage/schema.js';
import type { AdminWebhook, AdminWebhookDelivery, AdminWebhookTest } from '../schemas/webhooks.js';
import type { WebhookTestResult } from '../domain/webhooks/payload.js';

export function presentWebhook(row: WebhookSubscriptionRow): Static<typeof AdminWebhook> {
  return {
    object: 'webhook_subscription',
    id: row.id,
    workspace_id: row.workspace_id,
    connection_id: row.connection_id,
    integration_id: row.integration_id,
    url: row.url,
    event_types: row.event_types === null ? null : (JSON.parse(row.event_types) as string[]),
    api_version: row.api_version,
    status: row.status,
    created_time: row.created_time,
    verified_time: row.verified_time,
  };
}

export function presentWebhookDelivery(row: WebhookDeliveryRow): Static<typeof AdminWebhookDelivery> {
  return {
    object: 'webhook_delivery',
    id: row.id,
    subscription_id: row.subscription_id,
    event_id: row.event_id,
    type: row.type,
    entity: { id: row.entity_id, type: row.entity_type },
    events: row.events,
    status: row.state,
    attempt: row.attempts,
    response_code: row.response_status,
    latency_ms: row.latency_ms,
    error: row.last_error,
    next_retry_time: row.state === 'pending' && row.attempts > 0 ? row.next_attempt_time : null,
    created_time: row.created_time,
    delivered_time: row.delivered_time,
  };
}

export function presentWebhookTest(result: WebhookTestResult): Static<typeof AdminWebhookTest> {
  return {
    object: 'webhook_test',
    type: result.type,
    event_id: result.eventId,
    delivered: result.delivered,
    response_code: result.status,
    latency_ms: result.latencyMs,
    error: result.error,
  };
}
