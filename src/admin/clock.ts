import { AdminClock, SetClockBody } from '../schemas/admin.js';
import { presentClock } from '../presenters/adminObjects.js';
import { readClock, setClock } from '../commands/admin/clock.js';
import { adminOperation, plainOperation, type AnyAdminOperation } from './adminOperation.js';
import type { AppContext } from '../context.js';

/** The test clock exists only with FOLIO_TEST_CLOCK=1; otherwise its paths are unknown, as any other. */
const testClockOn = (ctx: AppContext) => ctx.config.testClock;

export const CLOCK_OPERATIONS: readonly AnyAdminOperation[] = [
  plainOperation('GET', '/clock', AdminClock, readClock, presentClock, { enabled: testClockOn }),
  adminOperation({
    method: 'POST',
    path: '/clock',
    body: SetClockBody,
    response: AdminClock,
    run: (ctx, { body }) => setClock(ctx, body),
    present: presentClock,
    enabled: testClockOn,
  }),
];
