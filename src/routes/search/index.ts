import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { SearchBody, SearchResponse } from '../../schemas/search.js';
import { searchTitles } from '../../commands/search.js';
import { JsonSplice } from '../../presenters/jsonSplice.js';
import { presentSearchResults } from '../../presenters/objects.js';
import { isNewestVersion } from '../../versioning/versions.js';

export function registerSearchRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/v1/search',
    {
      // Search returns content, so it needs read content; without it the answer is 403 (FACTS.md §2, Capabilities).
      config: { capability: 'read_content', response: SearchResponse },
      schema: { body: SearchBody },
      // Every field is optional, so no body at all is the search for everything.
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
    },
    async (request, reply) => {
      // A response at the newest version goes out as presented, so stored values are written as
      // stored; older versions are rewritten by the version modules, which need objects.
      const found = await searchTitles(ctx, request.caller!, request.body);
      const baseUrl = ctx.config.publicUrl;
      if (!isNewestVersion(request.apiVersion)) return presentSearchResults(found, { baseUrl });
      const splice = new JsonSplice();
      // As bytes: a string would be measured (content-length) and then encoded, two passes.
      return reply.type('application/json; charset=utf-8').send(splice.toBuffer(presentSearchResults(found, { baseUrl, splice })));
    },
  );
}
