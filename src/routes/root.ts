import type { App } from '../http/app.js';
import type { AppContext } from '../context.js';
import { PACKAGE } from '../packageInfo.js';

/**
 * GET /: what answers here, for someone who opens the base URL in a browser or curls it first.
 * Links are relative to the server's base; the docs and console will be added here when they exist.
 */
export function registerRootRoute(app: App, ctx: AppContext): void {
  app.get('/', async () => ({
    name: PACKAGE.name,
    version: PACKAGE.version,
    store: ctx.store.dialect.name,
    links: { health: '/healthz', ready: '/readyz' },
  }));
}
