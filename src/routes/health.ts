import type { App } from '../http/app.js';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors/registry.js';
import { engineReadiness } from '../commands/meetingNotes/engineReadiness.js';

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
    return { status: 'ready', store: ctx.store.dialect.name, meeting_notes: await engineReadiness(ctx) };
  });
}
