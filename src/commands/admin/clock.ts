import type { AppContext } from '../../context.js';
import { FixableClock } from '../../clock.js';
import { invalidField } from '../../errors/validationFailure.js';
import type { ClockView } from '../../domain/views.js';
import type { SetClockInput } from '../../schemas/admin.js';

function testClock(ctx: AppContext): FixableClock {
  // The clock routes exist only with FOLIO_TEST_CLOCK=1, when the core builds a FixableClock.
  if (!(ctx.clock instanceof FixableClock)) throw new Error('the test clock is off: start the server with FOLIO_TEST_CLOCK=1');
  return ctx.clock;
}

function viewOf(clock: FixableClock): ClockView {
  return { now: clock.now(), fixed: clock.fixed };
}

export function readClock(ctx: AppContext): ClockView {
  return viewOf(testClock(ctx));
}

/** Fixes the server's time at `now`, or returns it to the system clock with null. */
export function setClock(ctx: AppContext, input: SetClockInput): ClockView {
  const clock = testClock(ctx);
  const at = input.now === null ? null : new Date(input.now);
  // The date-time format admits what Date cannot hold (a leap second, a year past 275760).
  if (at !== null && Number.isNaN(at.getTime())) throw invalidField(['now'], 'should be an ISO 8601 date-time a JavaScript Date can hold', input.now);
  clock.fix(at);
  return viewOf(clock);
}
