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
