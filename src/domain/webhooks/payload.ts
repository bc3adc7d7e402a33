import { createHmac } from 'node:crypto';

export interface WebhookEntity {
  id: string;
  type: string;
}

export interface WebhookAuthor {
  id: string;
  type: 'person' | 'bot';
}

/** The service's envelope (FACTS.md §10.10.3, the SDK's BaseWebhookPayload). */
export interface WebhookPayload {
  id: string;
  timestamp: string;
  workspace_id: string;
  workspace_name: string;
  subscription_id: string;
  integration_id: string;
  type: string;
  authors: WebhookAuthor[];
  accessible_by?: { id: string; type: 'person' | 'bot' }[];
  attempt_number: number;
  api_version: string;
  entity: WebhookEntity;
  data?: unknown;
}

/** `X-Notion-Signature`: HMAC-SHA256 of the raw body keyed by the verification token (FACTS.md §10.10.2). */
export function signatureOf(body: string, verificationToken: string): string {
  return `sha256=${createHmac('sha256', verificationToken).update(body).digest('hex')}`;
}

/** Authors of aggregated events, each once, in the order they first wrote. */
export function mergeAuthors(a: readonly WebhookAuthor[], b: readonly WebhookAuthor[]): WebhookAuthor[] {
  const seen = new Set(a.map((x) => x.id));
  return [...a, ...b.filter((x) => !seen.has(x.id) && seen.add(x.id))];
}

/** `updated_blocks` of aggregated `*.content_updated` events: each block once (FACTS.md §10.10.4). */
export function mergeContentData(a: unknown, b: unknown): unknown {
  const left = (a ?? {}) as { updated_blocks?: WebhookEntity[] };
  const right = (b ?? {}) as { updated_blocks?: WebhookEntity[] };
  const blocks = [...(left.updated_blocks ?? [])];
  const seen = new Set(blocks.map((x) => x.id));
  for (const block of right.updated_blocks ?? []) if (!seen.has(block.id) && seen.add(block.id)) blocks.push(block);
  return { ...left, ...right, updated_blocks: blocks };
}

/** What a sample event sent to a receiver got back (`POST /admin/v1/webhooks/{id}/test`). */
export interface WebhookTestResult {
  type: string;
  eventId: string;
  delivered: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
}
