import type { App } from '../http/app.js';
import type { AppContext } from '../context.js';
import { registerUserRoutes } from './users/index.js';
import { registerPagesRoutes } from './pages/index.js';
import { registerBlocksRoutes } from './blocks/index.js';
import { registerDatabasesRoutes } from './databases/index.js';
import { registerDataSourcesRoutes } from './dataSources/index.js';
import { registerSearchRoutes } from './search/index.js';
import { registerFileUploadRoutes } from './fileUploads/index.js';
import { registerMeetingNotesRoutes } from './meetingNotes/index.js';
import { registerCommentRoutes } from './comments/index.js';
import { registerAsyncTaskRoutes } from './asyncTasks/index.js';
import { registerViewsRoutes } from './views/index.js';
import { registerCustomEmojiRoutes } from './customEmojis/index.js';

/** Every route of the versioned Content API, registered inside the v1 plane (src/http/v1Plane.ts). */
export function registerV1Routes(app: App, ctx: AppContext): void {
  registerUserRoutes(app, ctx);
  registerPagesRoutes(app, ctx);
  registerBlocksRoutes(app, ctx);
  registerDatabasesRoutes(app, ctx);
  registerDataSourcesRoutes(app, ctx);
  registerSearchRoutes(app, ctx);
  registerFileUploadRoutes(app, ctx);
  registerMeetingNotesRoutes(app, ctx);
  registerCommentRoutes(app, ctx);
  registerAsyncTaskRoutes(app, ctx);
  registerViewsRoutes(app, ctx);
  registerCustomEmojiRoutes(app, ctx);
}
