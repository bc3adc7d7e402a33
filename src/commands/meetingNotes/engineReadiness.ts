import type { AppContext } from '../../context.js';
import type { EngineReadiness } from '../../domain/meetingNotes/engineReadiness.js';

/** Whether each meeting-notes engine can run here, and if not why: for /readyz, the admin plane and the start-up log. */
export async function engineReadiness(ctx: AppContext): Promise<{ transcriber: EngineReadiness; summarizer: EngineReadiness }> {
  const { transcriber, summarizer } = ctx.meetingNotes;
  const [t, s] = await Promise.all([transcriber.readiness(), summarizer.readiness()]);
  return { transcriber: { engine: transcriber.name, ...t }, summarizer: { engine: summarizer.name, ...s } };
}
