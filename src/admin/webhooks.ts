import {
  AdminWebhook,
  AdminWebhookDelivery,
  AdminWebhookTest,
  CreateWebhookBody,
  TestWebhookBody,
  UpdateWebhookBody,
  VerifyWebhookBody,
  WebhookParams,
} from '../schemas/webhooks.js';
import { presentWebhook, presentWebhookDelivery, presentWebhookTest } from '../presenters/webhooks.js';
import {
  changeSubscription,
  createSubscription,
  getSubscription,
  listDeliveriesPage,
  listSubscriptionsPage,
  removeSubscription,
  sendTestEvent,
  verifySubscription,
} from '../commands/webhooks/subscriptions.js';
import { adminOperation, bodyOption, commaList, deletion, listing, pathOption, type AnyAdminOperation } from './adminOperation.js';

const webhookOption = pathOption('--webhook <id>', 'webhook_id');

/** Webhook subscriptions (issue 27 item 5): created pending, verified with the handshake's token, then sent events. */
export const WEBHOOK_OPERATIONS: readonly AnyAdminOperation[] = [
  adminOperation({
    method: 'POST',
    path: '/webhooks',
    body: CreateWebhookBody,
    response: AdminWebhook,
    run: (ctx, { body }) => createSubscription(ctx, body),
    present: presentWebhook,
    cli: {
      name: 'create-webhook',
      description: "subscribe a URL to a connection's events; Folio POSTs the verification token to it",
      options: [
        bodyOption('--connection <id>', 'connection_id', { required: true }),
        bodyOption('--url <url>', 'url', { required: true }),
        bodyOption('--event-types <list>', 'event_types', { description: 'comma-separated (default: every type)', convert: commaList }),
        bodyOption('--api-version <version>', 'api_version', { description: '2022-06-28, 2025-09-03 or 2026-03-11 (default)' }),
      ],
    },
  }),
  listing({
    path: '/webhooks',
    item: AdminWebhook,
    load: (ctx, _params, page) => listSubscriptionsPage(ctx, page),
    presentItem: presentWebhook,
    cli: { name: 'list-webhooks', description: 'list webhook subscriptions', options: [] },
  }),
  adminOperation({
    method: 'GET',
    path: '/webhooks/:webhook_id',
    params: WebhookParams,
    response: AdminWebhook,
    run: (ctx, { params }) => getSubscription(ctx, params.webhook_id),
    present: presentWebhook,
    cli: { name: 'get-webhook', description: 'show one webhook subscription', options: [webhookOption] },
  }),
  adminOperation({
    method: 'PATCH',
    path: '/webhooks/:webhook_id',
    params: WebhookParams,
    body: UpdateWebhookBody,
    response: AdminWebhook,
    run: (ctx, { params, body }) => changeSubscription(ctx, params.webhook_id, body),
    present: presentWebhook,
    cli: {
      name: 'update-webhook',
      description: 'change the event types (any time) or the URL (only before verification)',
      options: [
        webhookOption,
        bodyOption('--url <url>', 'url'),
        bodyOption('--event-types <list>', 'event_types', { description: 'comma-separated; replaces the current list', convert: commaList }),
      ],
    },
  }),
  deletion({
    path: '/webhooks/:webhook_id',
    params: WebhookParams,
    object: 'webhook_subscription',
    idParam: 'webhook_id',
    remove: (ctx, params) => removeSubscription(ctx, params.webhook_id),
    cli: { name: 'delete-webhook', description: 'delete a webhook subscription and its delivery log', options: [webhookOption] },
  }),
  adminOperation({
    method: 'POST',
    path: '/webhooks/:webhook_id/verify',
    params: WebhookParams,
    body: VerifyWebhookBody,
    response: AdminWebhook,
    run: (ctx, { params, body }) => verifySubscription(ctx, params.webhook_id, body.verification_token),
    present: presentWebhook,
    cli: {
      name: 'verify-webhook',
      description: 'activate a subscription with the token its handshake sent',
      options: [webhookOption, bodyOption('--token <token>', 'verification_token', { required: true })],
    },
  }),
  listing({
    path: '/webhooks/:webhook_id/deliveries',
    params: WebhookParams,
    item: AdminWebhookDelivery,
    load: (ctx, params, page) => listDeliveriesPage(ctx, params.webhook_id, page),
    presentItem: presentWebhookDelivery,
    cli: { name: 'list-webhook-deliveries', description: "a subscription's delivery log, oldest first", options: [webhookOption] },
  }),
  adminOperation({
    method: 'POST',
    path: '/webhooks/:webhook_id/test',
    params: WebhookParams,
    body: TestWebhookBody,
    response: AdminWebhookTest,
    run: (ctx, { params, body }) => sendTestEvent(ctx, params.webhook_id, body.type),
    present: presentWebhookTest,
    cli: {
      name: 'test-webhook',
      description: 'send a signed sample event of a type to the subscription URL',
      options: [webhookOption, bodyOption('--type <type>', 'type', { required: true })],
    },
  }),
];
