import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { ListView } from '../../domain/views.js';
import type { TemplateListOptions } from '../../schemas/templates.js';
import { loadVisibleObject } from '../../auth/access.js';
import { decodeCursor, encodeCursor } from '../../ids/cursor.js';
import { listTemplatesOf, type TemplateRow } from '../../storage/repositories/templates.js';

/**
 * GET /v1/data_sources/{id}/templates (FACTS.md §10.4). A data source has a handful of templates,
 * so they are read whole and the case-insensitive `name` filter runs here, with the same Unicode
 * case folding as everywhere else in JavaScript; the cursor is the last template shown.
 */
export async function listTemplates(
  ctx: AppContext,
  caller: Caller,
  dataSourceId: string,
  rawId: string,
  options: TemplateListOptions,
): Promise<ListView<TemplateRow>> {
  const db = ctx.store.db;
  const source = await loadVisibleObject(db, caller, dataSourceId, ['data_source'], 'data_source', rawId);
  const needle = options.name?.toLocaleLowerCase();
  let rows = (await listTemplatesOf(db, source.id)).filter((t) => needle === undefined || t.name.toLocaleLowerCase().includes(needle));
  if (options.start_cursor) {
    const after = String(decodeCursor(`templates:${source.id}`, options.start_cursor, 'start_cursor', 'query')[0]);
    rows = rows.slice(rows.findIndex((t) => t.page_id === after) + 1);
  }
  const pageSize = options.page_size ?? 100;
  const page = rows.slice(0, pageSize);
  return { items: page, nextCursor: rows.length > pageSize ? encodeCursor(`templates:${source.id}`, [page[page.length - 1].page_id]) : null };
}
