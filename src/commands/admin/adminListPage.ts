import { decodeCursor, encodeCursor } from '../../http/cursor.js';
import type { AdminListOptions } from '../../schemas/admin.js';

export interface AdminList<T> {
  object: 'list';
  results: T[];
  next_cursor: string | null;
  has_more: boolean;
}

/**
 * One keyset page of an admin listing, paginated like the API (`start_cursor`, `page_size` ≤ 100,
 * opaque cursors scoped to their listing). `load` reads up to `limit` rows after `after`.
 */
export async function adminListPage<Row, T>(
  scope: string,
  options: AdminListOptions,
  load: (after: string | null, limit: number) => Promise<Row[]>,
  keyOf: (row: Row) => string,
  present: (row: Row) => T,
): Promise<AdminList<T>> {
  const pageSize = options.page_size ?? 100;
  const after = options.start_cursor ? String(decodeCursor(scope, options.start_cursor, 'start_cursor', 'query')[0]) : null;
  const rows = await load(after, pageSize + 1);
  const page = rows.slice(0, pageSize);
  const next = rows.length > pageSize ? encodeCursor(scope, [keyOf(page[page.length - 1])]) : null;
  return { object: 'list', results: page.map(present), next_cursor: next, has_more: next !== null };
}
