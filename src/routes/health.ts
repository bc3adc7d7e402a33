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
    return { status: 'ready', store: ctx.store.dialect.name };
  });
}
