import type { AnyAdminOperation } from './adminOperation.js';
import { WORKSPACE_OPERATIONS } from './workspaces.js';
import { USER_OPERATIONS } from './users.js';
import { CONNECTION_OPERATIONS } from './connections.js';
import { PAGE_OPERATIONS } from './pages.js';
import { GRANT_OPERATIONS } from './grants.js';
import { PROCESSING_OPERATIONS } from './processing.js';
import { FILE_UPLOAD_OPERATIONS } from './fileUploads.js';
import { CLOCK_OPERATIONS } from './clock.js';
import { INSTRUMENT_OPERATIONS } from './instruments.js';
import { RESET_OPERATIONS } from './reset.js';
import { CUSTOM_EMOJI_OPERATIONS } from './customEmojis.js';
import { TEMPLATE_OPERATIONS } from './templates.js';
import { CONTENT_OPERATIONS } from './content.js';
import { MEETING_NOTE_OPERATIONS } from './meetingNotes.js';
import { INTEGRATION_OPERATIONS } from './integrations.js';
import { WEBHOOK_OPERATIONS } from './webhooks.js';
import { FIXTURE_OPERATIONS } from './fixtures.js';

/**
 * Every operator action, in the order `folio admin --help` lists its subcommands. The `/admin/v1`
 * routes (src/routes/admin/index.ts) and the `folio admin` subcommands (src/cli/registerAdminCli.ts)
 * are built from this table; nothing else declares an admin action.
 */
export const ADMIN_OPERATIONS: readonly AnyAdminOperation[] = [
  ...WORKSPACE_OPERATIONS,
  ...USER_OPERATIONS,
  ...CONNECTION_OPERATIONS,
  ...PAGE_OPERATIONS,
  ...GRANT_OPERATIONS,
  ...PROCESSING_OPERATIONS,
  ...FILE_UPLOAD_OPERATIONS,
  ...CLOCK_OPERATIONS,
  ...INSTRUMENT_OPERATIONS,
  ...RESET_OPERATIONS,
  ...CUSTOM_EMOJI_OPERATIONS,
  ...TEMPLATE_OPERATIONS,
  ...CONTENT_OPERATIONS,
  ...MEETING_NOTE_OPERATIONS,
  ...INTEGRATION_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...FIXTURE_OPERATIONS,
];

export type { AdminCli, AdminInput, AdminOperation, AnyAdminOperation, CliOption } from './adminOperation.js';
export { performAdminOperation } from './adminOperation.js';
