import type { VersionChange } from '../change.js';

/**
 * FACTS.md §10.8: the Views API needs Notion-Version 2025-09-03 or later (views show data
 * sources, which older versions do not know). An older caller gets what an unknown route answers.
 */
export const viewsAdded: VersionChange = {
  version: '2025-09-03',
  description: 'The `/v1/views` endpoints (views and view queries) are added.',
  addedRoutes: ['/v1/views'],
};
