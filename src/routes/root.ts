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

/** The dashed form of a 32-hex id. */
const dashed = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/**
 * GET /{id without dashes}: the `url` of every page and database (src/ids/objectUrl.ts). Someone
 * opening one in a browser has no token, so this says what the address is and how to read the
 * object through the API, without telling whether it exists or what it holds.
 */
export function registerObjectLinkRoute(app: App): void {
  app.get('/:object_id(^[0-9a-fA-F]{32}$)', async (request, reply) => {
    const id = dashed((request.params as { object_id: string }).object_id.toLowerCase());
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Folio object ${id}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}</style></head>
<body><h1>Folio</h1>
<p>This is the address of the page or database <code>${id}</code> on this Folio server, as its <code>url</code> field gives it.</p>
<p>Read it through the API with a connection it is shared with:</p>
<ul><li>a page: <code>GET /v1/pages/${id}</code>, its content <code>GET /v1/blocks/${id}/children</code></li>
<li>a database: <code>GET /v1/databases/${id}</code></li></ul>
<p>with <code>Authorization: Bearer &lt;token&gt;</code> and <code>Service-Version</code> (or <code>Notion-Version</code>).</p>
</body></html>
`;
    return reply.type('text/html; charset=utf-8').send(html);
  });
}
