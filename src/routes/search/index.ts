import type { App } from '../../server.js';
import type { AppContext } from '../../context.js';

export function registerSearchRoutes(app: App, ctx: AppContext): void {
  void app;
  void ctx;
}
