import type { App } from '../../server.js';
import type { AppContext } from '../../context.js';
import { SearchBody } from '../../schemas/search.js';
import { searchTitles } from '../../commands/search.js';

export function registerSearchRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/v1/search',
    {
      // Search returns content, so it needs read content; without it the answer is 403 (FACTS.md §2, Capabilities).
      config: { surface: 'v1', capability: 'read_content' },
      schema: { body: SearchBody },
      // Every field is optional, so no body at all is the search for everything.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => searchTitles(ctx, request.caller!, request.body),
  );
}
