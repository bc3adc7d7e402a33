import type { App } from '../http/app.js';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors/registry.js';
import { tokensMatch, hashToken } from '../auth/tokens.js';

/**
 * Prometheus text at /metrics (issue 26): on the root, so outside the `/v1` rate limit and its
 * version header. Open unless FOLIO_METRICS_TOKEN is set, as scrapers usually run inside.
 */
export function registerMetricsRoute(app: App, ctx: AppContext): void {
  const tokenHash = ctx.config.metricsToken ? hashToken(ctx.config.metricsToken) : null;
  app.get('/metrics', async (request, reply) => {
    if (tokenHash) {
      const header = request.headers.authorization ?? '';
      const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (!token || !tokensMatch(token, tokenHash)) throw new ApiError('unauthorized', 'Metrics token is invalid.');
    }
    const { contentType, body } = await ctx.instruments.metrics.render();
    return reply.type(contentType).send(body);
  });
}
