import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './001_initial.js';
import * as searchIndex from './002_search_index.js';
import * as itemsByValue from './003_items_by_value.js';
import * as searchScope from './004_search_scope.js';
import * as queryColumns from './005_query_columns.js';
import * as fileUploads from './006_file_uploads.js';
import * as meetingNotes from './007_meeting_notes.js';
import * as comments from './008_comments.js';
import * as templatesEmojis from './009_templates_emojis.js';
import * as views from './010_views.js';
import * as asyncTasks from './011_async_tasks.js';
import * as oauth from './012_oauth.js';
import * as webhooks from './013_webhooks.js';
import * as integrationWebhooks from './014_integration_webhooks.js';
import * as childrenOrder from './015_children_order.js';
import * as boolValues from './016_bool_values.js';
import * as currentVersions from './017_current_versions.js';
import * as textValuesByPage from './018_text_values_by_page.js';

/** Listed statically so the same migrations run from source (tsx) and from the build. */
const MIGRATIONS: Record<string, Migration> = {
  '001_initial': initial,
  '002_search_index': searchIndex,
  '003_items_by_value': itemsByValue,
  '004_search_scope': searchScope,
  '005_query_columns': queryColumns,
  '006_file_uploads': fileUploads,
  '007_meeting_notes': meetingNotes,
  '008_comments': comments,
  '009_templates_emojis': templatesEmojis,
  '010_views': views,
  '011_async_tasks': asyncTasks,
  '012_oauth': oauth,
  '013_webhooks': webhooks,
  '014_integration_webhooks': integrationWebhooks,
  '015_children_order': childrenOrder,
  '016_bool_values': boolValues,
  '017_current_versions': currentVersions,
  '018_text_values_by_page': textValuesByPage,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
