import type { JobKind } from '../jobKind.js';
import { WEBHOOK_HANDSHAKE_JOB, sendHandshake } from '../../commands/webhooks/handshake.js';

/** The one-time `{verification_token}` POST to a new subscription's URL, retried by the worker while the receiver is down. */
export const webhookHandshakeJobKind: JobKind = {
  name: WEBHOOK_HANDSHAKE_JOB,
  slots: (config) => config.webhooks.handshakeSlots,
  handler: (ctx) => ({ run: (job) => sendHandshake(ctx, job) }),
};
