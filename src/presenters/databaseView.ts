import type { Static } from 'typebox';
import type { DatabaseViewRow } from '../storage/schema.js';
import type {
  DeletedViewQueryResponse,
  PartialViewObject,
  ViewListResponse,
  ViewObject,
  ViewQueryResponse,
  ViewQueryResultsResponse,
  ViewType,
} from '../schemas/databaseViews.js';
import type { ListView } from '../domain/views.js';
import { listPage } from '../ids/listPage.js';
import { objectUrl } from '../ids/objectUrl.js';
import { partialUser, presentTimestamp } from './time.js';

type ViewJson = Static<typeof ViewObject>;
const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** The view object (FACTS.md §10.8 8.2). Its URL is its database's, with the view named as the service's links name it. */
export function presentDatabaseView(row: DatabaseViewRow, options: { baseUrl: string }): ViewJson {
  return {
    object: 'view',
    id: row.id,
    parent: { type: 'database_id', database_id: row.database_id },
    name: row.name,
    type: row.type as ViewType,
    created_time: presentTimestamp(row.created_time),
    last_edited_time: presentTimestamp(row.last_edited_time),
    url: `${objectUrl(options.baseUrl, row.database_id)}?v=${row.id.replace(/-/g, '')}`,
    data_source_id: row.data_source_id,
    created_by: partialUser(row.created_by),
    last_edited_by: partialUser(row.last_edited_by),
    filter: json<ViewJson['filter']>(row.filter),
    sorts: json<ViewJson['sorts']>(row.sorts),
    quick_filters: json<ViewJson['quick_filters']>(row.quick_filters),
    configuration: json<ViewJson['configuration']>(row.configuration),
    ...(row.dashboard_view_id ? { dashboard_view_id: row.dashboard_view_id } : {}),
  };
}

/** `{object, id, parent, type}`: what a delete answers, and a create to a connection that may not read. */
export function presentPartialDatabaseView(row: DatabaseViewRow): Static<typeof PartialViewObject> {
  return { object: 'view', id: row.id, parent: { type: 'database_id', database_id: row.database_id }, type: row.type as ViewType };
}

export function presentDatabaseViewList(list: ListView<string>): Static<typeof ViewListResponse> {
  return listPage(
    'view',
    list.items.map((id) => ({ object: 'view' as const, id })),
    list.nextCursor,
  ) as Static<typeof ViewListResponse>;
}

interface ViewQueryPageView {
  query: { id: string; view_id: string; expires_at: string; total_count: number; incomplete: number };
  pageIds: readonly string[];
  nextCursor: string | null;
}

const requestStatus = (incomplete: number) =>
  incomplete === 1 ? ({ type: 'incomplete', incomplete_reason: 'query_result_limit_reached' } as const) : ({ type: 'complete' } as const);
const pageRefs = (ids: readonly string[]) => ids.map((id) => ({ object: 'page' as const, id }));

/** A new view query with its first page (FACTS.md §10.8 8.6). */
export function presentViewQuery(page: ViewQueryPageView): Static<typeof ViewQueryResponse> {
  return {
    object: 'view_query',
    id: page.query.id,
    view_id: page.query.view_id,
    expires_at: page.query.expires_at,
    total_count: page.query.total_count,
    results: pageRefs(page.pageIds),
    next_cursor: page.nextCursor,
    has_more: page.nextCursor !== null,
    // Repeated on every page of a cut result (FACTS.md §10.8 8.6).
    request_status: requestStatus(page.query.incomplete),
  };
}

export function presentViewQueryResults(page: ViewQueryPageView): Static<typeof ViewQueryResultsResponse> {
  return listPage('page', pageRefs(page.pageIds), page.nextCursor, { request_status: requestStatus(page.query.incomplete) }) as Static<
    typeof ViewQueryResultsResponse
  >;
}

export function presentDeletedViewQuery(id: string): Static<typeof DeletedViewQueryResponse> {
  return { object: 'view_query', id, deleted: true };
}
