import type { JobKind } from '../jobKind.js';
import { WEBHOOK_DELIVERY_JOB, deliverWebhooks } from '../../commands/webhooks/deliveryJob.js';

/** A workspace's webhook events: outbox → deliveries → signed POSTs, retried by the server's clock (src/commands/webhooks/deliveryJob.ts). */
export const webhookDeliveryJobKind: JobKind = {
  name: WEBHOOK_DELIVERY_JOB,
  slots: (config) => config.webhooks.slots,
  handler: (ctx) => ({ run: (job) => deliverWebhooks(ctx, job) }),
};
