import { Type, type Static } from 'typebox';
import { StrictObject } from './common.js';
import { Closed, ListOf } from './objectParts.js';
import { PageObject } from './pages.js';

/**
 * POST /v1/data_sources/{id}/query and, before 2025-09-03, POST /v1/databases/{id}/query (FACTS.md
 * §5). `filter` and `sorts` are checked against the data source's schema by the query itself
 * (src/domain/query/parseFilter.ts, parseSorts.ts), which names the failing path inside them.
 */
export const QueryBody = StrictObject({
  filter: Type.Optional(Type.Unknown()),
  sorts: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 100 })),
  // The SDK types it `string | null`; null is the first page.
  start_cursor: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  in_trash: Type.Optional(Type.Boolean()),
  // Wikis list data sources beside pages; a data source holds none, so `data_source` finds nothing.
  result_type: Type.Optional(Type.Enum(['page', 'data_source'])),
});
export type QueryRequest = Static<typeof QueryBody>;

export const DataSourceQueryParams = StrictObject({ data_source_id: Type.String({ maxLength: 200 }) });
export const DatabaseQueryParams = StrictObject({ database_id: Type.String({ maxLength: 200 }) });

// ---- Responses (newest version; see src/schemas/objectParts.ts) ----

export const QueryResponse = ListOf('page_or_data_source', PageObject, {
  request_status: Type.Union([
    Type.Object({ type: Type.Literal('complete') }, Closed),
    Type.Object({ type: Type.Literal('incomplete'), incomplete_reason: Type.Literal('query_result_limit_reached') }, Closed),
  ]),
});
