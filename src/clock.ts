/**
 * Where commands read the time. A module of its own so a test clock (or a worker replaying jobs)
 * can stand in for the system clock without touching what reads it.
 */
export interface Clock {
  /**
   * Stored timestamps are `now().toISOString()`: millisecond ISO-8601 UTC, fixed width, so they
   * sort correctly as text. A command reads it once and writes that one time everywhere.
   */
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * The test clock (FOLIO_TEST_CLOCK=1, `POST /admin/v1/clock`): the system clock until fixed, then
 * that instant until fixed elsewhere or released. Frozen rather than offset, so a test can predict
 * every time the server writes or computes, not only the first. Held by one process: instances
 * sharing a PostgreSQL store each have their own.
 */
export class FixableClock implements Clock {
  #fixedAt: Date | null = null;

  now(): Date {
    // A copy: a Date is mutable, and a caller changing its own must not move the clock.
    return this.#fixedAt ? new Date(this.#fixedAt.getTime()) : new Date();
  }

  get fixed(): boolean {
    return this.#fixedAt !== null;
  }

  /** Freezes the clock at `at`, or returns it to the system clock with null. */
  fix(at: Date | null): void {
    this.#fixedAt = at ? new Date(at.getTime()) : null;
  }
}
