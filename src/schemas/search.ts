import { Type, type Static } from 'typebox';
import { StrictObject } from './common.js';
import { Closed, ListOf } from './objectParts.js';
import { PageObject } from './pages.js';
import { DataSourceObject } from './dataSources.js';

/**
 * POST /v1/search at the newest version (spec "POST /v1/search"; FACTS.md §4). Older callers'
 * `filter.value: "database"` is rewritten to `data_source` before this runs
 * (src/versioning/changes/2025-09-03-search.ts).
 */
export const SearchBody = StrictObject({
  query: Type.Optional(Type.String({ maxLength: 2000 })),
  filter: Type.Optional(
    StrictObject({
      property: Type.Optional(Type.Literal('object')),
      value: Type.Optional(Type.Enum(['page', 'data_source'])),
      in_trash: Type.Optional(Type.Boolean()),
    }),
  ),
  sort: Type.Optional(
    Type.Union([
      StrictObject({
        timestamp: Type.Literal('last_edited_time'),
        direction: Type.Enum(['ascending', 'descending']),
      }),
      // The SDK (search.d.ts) types it, the reference does not describe it (FACTS.md §4): taken,
      // and listed as with no sort (docs/decisions.md).
      StrictObject({ property: Type.Literal('relevance') }),
    ]),
  ),
  // The SDK types it `string | null`; null is the first page.
  start_cursor: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});

export type SearchRequest = Static<typeof SearchBody>;

// ---- Responses (newest version; see src/schemas/objectParts.ts) ----

export const SearchResponse = ListOf('page_or_data_source', Type.Union([PageObject, DataSourceObject]), {
  request_status: Type.Object({ type: Type.Literal('complete') }, Closed),
});
