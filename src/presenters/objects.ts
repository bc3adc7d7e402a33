import type { DataSourceView, ListView, PageView, QueryView } from '../domain/views.js';
import { listPage } from '../ids/listPage.js';
import { presentPage, presentPageText } from './page.js';
import type { JsonSplice } from './jsonSplice.js';
import { presentDataSource } from './dataSource.js';

/**
 * A mixed list of pages and data sources (search, queries). With a splice, pages come back as its
 * placeholders for their JSON text (jsonSplice.ts).
 */
export function presentObjects(
  views: readonly (PageView | DataSourceView)[],
  options: { baseUrl: string; splice?: JsonSplice },
): Array<Record<string, unknown> | string> {
  return views.map((view) => {
    if (view.kind === 'data_source') return presentDataSource(view, options);
    // With a splice, the page goes into the response as its JSON text.
    if (options.splice) return options.splice.add(presentPageText(view, options));
    return presentPage(view, options);
  });
}

/** The answer of POST /v1/search (FACTS.md §4): the list envelope with its request status. */
export function presentSearchResults(list: ListView<PageView | DataSourceView>, options: { baseUrl: string; splice?: JsonSplice }) {
  return listPage('page_or_data_source', presentObjects(list.items, options), list.nextCursor, { request_status: { type: 'complete' } });
}

/**
 * The answer of a query (FACTS.md §3, §5): pages, and whether the listing stopped at the 10,000
 * cap. With a splice (newest version, no filter_properties), pages are written as stored.
 */
export function presentQueryResults(list: QueryView, options: { baseUrl: string; filterProperties?: readonly string[]; splice?: JsonSplice }) {
  const results = list.items.map((view) =>
    options.splice && !options.filterProperties ? options.splice.add(presentPageText(view, options)) : presentPage(view, options),
  );
  const status = list.incomplete ? { type: 'incomplete', incomplete_reason: 'query_result_limit_reached' } : { type: 'complete' };
  return listPage('page_or_data_source', results, list.nextCursor, { request_status: status });
}
