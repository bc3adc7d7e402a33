import { decodeCursor, encodeCursor } from '../../ids/cursor.js';
import type { ListView } from '../../domain/views.js';
import type { AdminListOptions } from '../../schemas/admin.js';

/**
 * One keyset page of an admin listing, paginated like the API (`start_cursor`, `page_size` ≤ 100,
 * opaque cursors scoped to their listing). `load` reads up to `limit` rows after `after`.
 */
export async function adminListPage<Row>(
  scope: string,
  options: AdminListOptions,
  load: (after: string | null, limit: number) => Promise<Row[]>,
  keyOf: (row: Row) => string,
): Promise<ListView<Row>> {
  const pageSize = options.page_size ?? 100;
  const after = options.start_cursor ? String(decodeCursor(scope, options.start_cursor, 'start_cursor', 'query')[0]) : null;
  const rows = await load(after, pageSize + 1);
  const page = rows.slice(0, pageSize);
  const next = rows.length > pageSize ? encodeCursor(scope, [keyOf(page[page.length - 1])]) : null;
  return { items: page, nextCursor: next };
}
