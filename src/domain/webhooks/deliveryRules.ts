import { WEBHOOK_EVENT_TYPES, type WebhookApiVersion, type WebhookEventType } from '../../schemas/webhooks.js';

/**
 * How Folio delivers webhook events (FACTS.md §10.10.5). Where the references are silent
 * (schedule, timeout, what counts as success) the choice is written in docs/decisions.md.
 */

/** `attempt_number` runs 1–8 (FACTS.md §10.10.5). */
export const MAX_DELIVERY_ATTEMPTS = 8;

/**
 * The wait before attempts 2…8, by the server's clock: exponential-ish, the last about a day after
 * the first ("final retry is about 24 hours after initial event", FACTS.md §10.10.5).
 */
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 3 * 3600_000, 6 * 3600_000, 12 * 3600_000] as const;

/** When the attempt after `attemptsMade` failed ones is due, or null when none is left. */
export function nextAttemptAt(attemptsMade: number, now: Date): Date | null {
  if (attemptsMade >= MAX_DELIVERY_ATTEMPTS) return null;
  return new Date(now.getTime() + RETRY_DELAYS_MS[attemptsMade - 1]);
}

/** High-frequency events batched per entity within a short window (FACTS.md §10.10.5). */
export function isAggregated(type: string): boolean {
  return type.endsWith('.content_updated');
}

/** Deprecated at 2025-09-03 in favour of their `data_source.*` twins (FACTS.md §10.10.4). */
const DEPRECATED_SINCE_2025: readonly WebhookEventType[] = ['database.content_updated', 'database.schema_updated'];
/** New at 2025-09-03: a 2022-06-28 subscription hears of databases instead. */
const NEW_IN_2025 = (type: WebhookEventType) => type.startsWith('data_source.');

/** A subscription made without `event_types` hears every type its version does not deprecate. */
export function defaultEventTypes(version: WebhookApiVersion): WebhookEventType[] {
  if (version === '2022-06-28') return WEBHOOK_EVENT_TYPES.filter((t) => !NEW_IN_2025(t));
  return WEBHOOK_EVENT_TYPES.filter((t) => !DEPRECATED_SINCE_2025.includes(t));
}

export function subscribesTo(eventTypes: readonly string[] | null, version: WebhookApiVersion, type: string): boolean {
  return (eventTypes ?? defaultEventTypes(version)).includes(type);
}

/** The capability a connection needs to hear an event of this type (FACTS.md §10.10.4: comments need "comment read"). */
export function capabilityFor(type: string): 'read_content' | 'read_comments' | null {
  if (type.startsWith('comment.')) return 'read_comments';
  if (type.startsWith('file_upload.')) return null;
  return 'read_content';
}
