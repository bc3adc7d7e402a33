import type { App } from '../../server.js';
import type { AppContext } from '../../context.js';

export function registerBlocksRoutes(app: App, ctx: AppContext): void {
  void app;
  void ctx;
}
