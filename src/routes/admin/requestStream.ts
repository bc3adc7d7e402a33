import type { ServerResponse } from 'node:http';
import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { presentLoggedRequest } from '../../presenters/instruments.js';

/** How often an idle stream sends a comment, so proxies and clients keep it open. */
const KEEPALIVE_MS = 15_000;

/**
 * `GET /admin/v1/requests/stream`: the request log live, as server-sent events (one `request`
 * event per answered `/v1` request), for the console. `?connection_id=` narrows it. Open streams
 * are ended when the server closes, which would otherwise wait for every watcher to leave.
 */
export function registerRequestStream(app: App, ctx: AppContext): void {
  const open = new Set<ServerResponse>();
  app.addHook('preClose', (done) => {
    for (const response of open) response.end();
    done();
  });
  app.get('/admin/v1/requests/stream', (request, reply) => {
    const only = (request.query as Record<string, unknown>).connection_id;
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-request-id': request.id,
    });
    response.write(': folio request log\n\n');
    open.add(response);
    const unsubscribe = ctx.instruments.requests.subscribe((entry) => {
      if (typeof only === 'string' && entry.connection_id !== only) return;
      response.write(`event: request\nid: ${entry.request_id}\ndata: ${JSON.stringify(presentLoggedRequest(entry))}\n\n`);
    });
    const keepalive = setInterval(() => response.write(': keepalive\n\n'), KEEPALIVE_MS);
    keepalive.unref();
    response.on('close', () => {
      clearInterval(keepalive);
      unsubscribe();
      open.delete(response);
    });
  });
}
