import type { App } from '../http/app.js';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors/registry.js';

export function registerHealthRoutes(app: App, ctx: AppContext): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async () => {
    try {
      await ctx.store.ping();
    } catch {
      throw new ApiError('service_unavailable', 'The store is not reachable.');
    }
    // Meeting notes without a usable engine still get created (and end transcription_failed with
    // the reason): the server is ready, and says what processing lacks.
    const [transcriber, summarizer] = await Promise.all([ctx.meetingNotes.transcriber.readiness(), ctx.meetingNotes.summarizer.readiness()]);
    return {
      status: 'ready',
      store: ctx.store.dialect.name,
      meeting_notes: {
        transcriber: { engine: ctx.meetingNotes.transcriber.name, ...readiness(transcriber) },
        summarizer: { engine: ctx.meetingNotes.summarizer.name, ...readiness(summarizer) },
      },
    };
  });
}

function readiness(state: { ready: true } | { ready: false; reason: string }) {
  return state.ready ? { ready: true } : { ready: false, reason: state.reason };
}
