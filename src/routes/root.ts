import type { App } from '../server.js';
import type { AppContext } from '../context.js';
import { PACKAGE } from '../packageInfo.js';

/**
 * GET /: what answers here, for someone who opens the base URL in a browser or curls it first.
 * Links are relative to the server's base; the docs and console will be added here when they exist.
 */
export function registerRootRoute(app: App, ctx: AppContext): void {
  app.get('/', { config: { surface: 'ops' } }, async () => ({
    name: PACKAGE.name,
    version: PACKAGE.version,
    store: ctx.store.dialect,
    links: { health: '/healthz', ready: '/readyz' },
  }));
}
