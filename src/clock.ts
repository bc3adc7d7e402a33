/**
 * Where commands read the time. A module of its own so a test clock (or a worker replaying jobs)
 * can stand in for the system clock without touching what reads it.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
