import type { App } from '../server.js';
import type { AppContext } from '../context.js';
import { registerHealthRoutes } from './health.js';
import { registerRootRoute } from './root.js';
import { registerAdminRoutes } from './admin/index.js';
import { registerUserRoutes } from './users/index.js';
import { registerPagesRoutes } from './pages/index.js';
import { registerBlocksRoutes } from './blocks/index.js';
import { registerDatabasesRoutes } from './databases/index.js';
import { registerDataSourcesRoutes } from './dataSources/index.js';
import { registerSearchRoutes } from './search/index.js';

/** Every route of every plane, registered in one place. */
export function registerRoutes(app: App, ctx: AppContext): void {
  registerRootRoute(app, ctx);
  registerHealthRoutes(app, ctx);
  registerAdminRoutes(app, ctx);
  registerUserRoutes(app, ctx);
  registerPagesRoutes(app, ctx);
  registerBlocksRoutes(app, ctx);
  registerDatabasesRoutes(app, ctx);
  registerDataSourcesRoutes(app, ctx);
  registerSearchRoutes(app, ctx);
}
