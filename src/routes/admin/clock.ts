import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { SetClockBody } from '../../schemas/admin.js';
import { presentClock } from '../../presenters/adminObjects.js';
import { readClock, setClock } from '../../commands/admin/clock.js';

/** The test clock; registered only with FOLIO_TEST_CLOCK=1 (otherwise the paths are unknown, as any other). */
export function registerClockAdminRoutes(app: App, ctx: AppContext): void {
  app.get('/admin/v1/clock', async () => presentClock(readClock(ctx)));

  app.post('/admin/v1/clock', { schema: { body: SetClockBody } }, async (request) => presentClock(setClock(ctx, request.body)));
}
