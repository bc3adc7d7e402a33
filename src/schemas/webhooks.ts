import { Type, type Static, type TSchema } from 'typebox';
import { StrictObject } from './common.js';

/**
 * Webhook event types (FACTS.md §10.10.4): every type the service sends. A subscription may name
 * any of them; the ones Folio causes are recorded by the write commands (src/commands/events/).
 */
export const WEBHOOK_EVENT_TYPES = [
  'page.created',
  'page.content_updated',
  'page.properties_updated',
  'page.moved',
  'page.deleted',
  'page.undeleted',
  'page.locked',
  'page.unlocked',
  'page.transcription_block.transcript_deleted',
  'database.created',
  'database.content_updated',
  'database.schema_updated',
  'database.deleted',
  'database.moved',
  'database.undeleted',
  'data_source.created',
  'data_source.content_updated',
  'data_source.schema_updated',
  'data_source.deleted',
  'data_source.moved',
  'data_source.undeleted',
  'comment.created',
  'comment.updated',
  'comment.deleted',
  'file_upload.created',
  'file_upload.completed',
  'file_upload.expired',
  'file_upload.upload_failed',
  'view.created',
  'view.updated',
  'view.deleted',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The versions a payload can be shaped for (FACTS.md §10.10.3 `api_version`). */
export const WEBHOOK_API_VERSIONS = ['2022-06-28', '2025-09-03', '2026-03-11'] as const;
export type WebhookApiVersion = (typeof WEBHOOK_API_VERSIONS)[number];

const literals = <T extends string>(values: readonly T[]) => Type.Unsafe<T>(Type.Union(values.map((v) => Type.Literal(v))));
const EventType = literals(WEBHOOK_EVENT_TYPES);
const EventTypes = Type.Array(EventType, { maxItems: WEBHOOK_EVENT_TYPES.length, uniqueItems: true });
/** Checked again by the command (http or https, parsable); loopback and private addresses are the operator's choice. */
const Url = Type.String({ minLength: 1, maxLength: 2000 });

/** Exactly one of `connection_id` and `integration_id` (checked by the command, which names the field). */
export const CreateWebhookBody = StrictObject({
  connection_id: Type.Optional(Type.String()),
  integration_id: Type.Optional(Type.String()),
  url: Url,
  event_types: Type.Optional(EventTypes),
  api_version: Type.Optional(literals(WEBHOOK_API_VERSIONS)),
});
export const UpdateWebhookBody = Type.Object(
  { url: Type.Optional(Url), event_types: Type.Optional(Type.Union([EventTypes, Type.Null()])) },
  {
    additionalProperties: false,
    minProperties: 1,
  },
);
export const VerifyWebhookBody = StrictObject({ verification_token: Type.String({ minLength: 1, maxLength: 200 }) });
export const TestWebhookBody = StrictObject({ type: EventType });
export const WebhookParams = StrictObject({ webhook_id: Type.String() });

export type CreateWebhookInput = Static<typeof CreateWebhookBody>;
export type UpdateWebhookInput = Static<typeof UpdateWebhookBody>;

const Closed = { additionalProperties: false } as const;
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A subscription as the operator sees it; never its verification token (only the handshake carries it). */
export const AdminWebhook = Type.Object(
  {
    object: Type.Literal('webhook_subscription'),
    id: Type.String(),
    /** null for an integration's subscription: it hears every workspace the integration is installed in. */
    workspace_id: Nullable(Type.String()),
    connection_id: Nullable(Type.String()),
    integration_id: Nullable(Type.String()),
    url: Type.String(),
    /** null: every type the subscription's version does not deprecate. */
    event_types: Nullable(Type.Array(Type.String())),
    api_version: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('active')]),
    created_time: Type.String(),
    verified_time: Nullable(Type.String()),
  },
  Closed,
);

/** One line of the delivery log. */
export const AdminWebhookDelivery = Type.Object(
  {
    object: Type.Literal('webhook_delivery'),
    id: Type.String(),
    subscription_id: Type.String(),
    event_id: Type.String(),
    type: Type.String(),
    entity: Type.Object({ id: Type.String(), type: Type.String() }, Closed),
    /** How many events it carries (more than one when aggregated). */
    events: Type.Integer(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
    attempt: Type.Integer(),
    response_code: Nullable(Type.Integer()),
    latency_ms: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    next_retry_time: Nullable(Type.String()),
    created_time: Type.String(),
    delivered_time: Nullable(Type.String()),
  },
  Closed,
);

/** What a sample event sent with `POST /admin/v1/webhooks/{id}/test` got back. */
export const AdminWebhookTest = Type.Object(
  {
    object: Type.Literal('webhook_test'),
    type: Type.String(),
    event_id: Type.String(),
    delivered: Type.Boolean(),
    response_code: Nullable(Type.Integer()),
    latency_ms: Type.Integer(),
    error: Nullable(Type.String()),
  },
  Closed,
);
