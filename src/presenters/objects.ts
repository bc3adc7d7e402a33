import type { DataSourceView, ListView, PageView } from '../domain/views.js';
import { listPage } from '../http/cursor.js';
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
