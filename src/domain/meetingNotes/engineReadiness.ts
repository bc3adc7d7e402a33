/**
 * Whether a meeting-notes engine can run here, and if not why: what /readyz, the admin plane and
 * the start-up log show. Said here, below the presenters, so that the presenter showing it need not
 * import the command that asks the engines (src/commands/meetingNotes/engineReadiness.ts); that
 * command builds it from the engines' own `Readiness`, so a drift between the two is a compile error.
 */
export type EngineReadiness = { engine: string; ready: true } | { engine: string; ready: false; reason: string };
