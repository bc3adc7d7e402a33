import type { DataSourceView, ListView, PageView, QueryView } from '../domain/views.js';
import type { Static } from 'typebox';
import { presentPage, presentPageText } from './page.js';
import type { JsonSplice, Placeholder, WithPlaceholders } from './jsonSplice.js';
import { presentDataSource } from './dataSource.js';
import { presentList } from './list.js';
import type { PageObject } from '../schemas/pages.js';
import type { DataSourceObject } from '../schemas/dataSources.js';
import type { SearchResponse } from '../schemas/search.js';
import type { QueryResponse } from '../schemas/query.js';

type SearchJson = Static<typeof SearchResponse>;
type QueryJson = Static<typeof QueryResponse>;

/**
 * A mixed list of pages and data sources (search, queries). With a splice, pages come back as its
 * placeholders for their JSON text (jsonSplice.ts).
 */
export function presentObjects(
  views: readonly (PageView | DataSourceView)[],
  options: { baseUrl: string; splice?: JsonSplice },
): Array<Static<typeof PageObject> | Static<typeof DataSourceObject> | Placeholder> {
  return views.map((view) => {
    if (view.kind === 'data_source') return presentDataSource(view, options);
    // With a splice, the page goes into the response as its JSON text.
    if (options.splice) return options.splice.add(presentPageText(view, options));
    return presentPage(view, options);
  });
}

/** The answer of POST /v1/search (FACTS.md §4): the list envelope with its request status. */
export function presentSearchResults(list: ListView<PageView | DataSourceView>, options: { baseUrl: string }): SearchJson;
export function presentSearchResults(list: ListView<PageView | DataSourceView>, options: { baseUrl: string; splice: JsonSplice }): WithPlaceholders<SearchJson>;
export function presentSearchResults(
  list: ListView<PageView | DataSourceView>,
  options: { baseUrl: string; splice?: JsonSplice },
): WithPlaceholders<SearchJson> {
  return presentList('page_or_data_source', presentObjects(list.items, options), list.nextCursor, { request_status: { type: 'complete' as const } });
}

/**
 * The answer of a query (FACTS.md §3, §5): pages, and whether the listing stopped at the 10,000
 * cap. With a splice (newest version, no filter_properties), pages are written as stored.
 */
export function presentQueryResults(list: QueryView, options: { baseUrl: string; filterProperties?: readonly string[] }): QueryJson;
export function presentQueryResults(list: QueryView, options: { baseUrl: string; splice: JsonSplice }): WithPlaceholders<QueryJson>;
export function presentQueryResults(
  list: QueryView,
  options: { baseUrl: string; filterProperties?: readonly string[]; splice?: JsonSplice },
): WithPlaceholders<QueryJson> {
  const results = list.items.map((view) =>
    options.splice && !options.filterProperties ? options.splice.add(presentPageText(view, options)) : presentPage(view, options),
  );
  const status: QueryJson['request_status'] = list.incomplete ? { type: 'incomplete', incomplete_reason: 'query_result_limit_reached' } : { type: 'complete' };
  return presentList('page_or_data_source', results, list.nextCursor, { request_status: status });
}
