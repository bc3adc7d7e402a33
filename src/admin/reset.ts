import { AdminReset, ResetBody } from '../schemas/admin.js';
import { resetStore } from '../commands/admin/reset.js';
import { adminOperation, bodyOption, type AnyAdminOperation } from './adminOperation.js';

export const RESET_OPERATIONS: readonly AnyAdminOperation[] = [
  adminOperation({
    method: 'POST',
    path: '/reset',
    body: ResetBody,
    response: AdminReset,
    run: (ctx, { body }) => resetStore(ctx, body),
    present: (view) => ({ object: 'reset' as const, to: view.to, duration_ms: view.durationMs }),
    cli: {
      name: 'reset',
      description: 'empty the store: every workspace, user, connection, object and file (the migrations and settings stay)',
      options: [bodyOption('--to <state>', 'to', { description: 'empty', required: true })],
    },
  }),
];
