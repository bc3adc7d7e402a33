import type { VersionChange } from '../change.js';
import { ValidationFailure } from '../../errors/validationFailure.js';

import { literalOf, removeProperty, renameListType, requestSchema, successSchema } from '../openapiDocument.js';

const ROUTE = 'POST /v1/search';

/**
 * A data source found by search, as the database holding it, for callers before 2025-09-03: the
 * database's id and url, and the database's own parent. Every field a data source shares with
 * the old database object (title, description, properties, icon, cover, is_inline, in_trash,
 * authors and times) is kept.
 */
function asDatabase(source: Record<string, unknown>): Record<string, unknown> {
  const parent = source.parent as { database_id?: unknown } | undefined;
  const databaseId = typeof parent?.database_id === 'string' ? parent.database_id : (source.id as string);
  const { database_parent: databaseParent, ...rest } = source;
  const hex = (id: unknown) => String(id).replace(/-/g, '');
  return {
    ...rest,
    object: 'database',
    id: databaseId,
    parent: databaseParent ?? { type: 'workspace', workspace: true },
    url: typeof source.url === 'string' ? source.url.replace(hex(source.id), hex(databaseId)) : source.url,
  };
}

/**
 * FACTS.md §1, 2025-09-03 "Search" (and §3): search lists data sources, one per source, under the
 * list type `page_or_data_source`, filtered with `value: "data_source"`; before, it listed
 * databases under `page_or_database`, filtered with `value: "database"`. Scoped to the search
 * route: the general database/data source split of other routes is its own module.
 */
export const searchDataSources: VersionChange = {
  version: '2025-09-03',
  description:
    'Search finds data sources: `filter.value` `data_source` (was `database`), results `object: "data_source"` (were databases), list type `page_or_data_source` (was `page_or_database`).',
  upgradeRequest(request) {
    if (request.route !== ROUTE || !request.body || typeof request.body !== 'object') return;
    const filter = (request.body as { filter?: unknown }).filter;
    if (!filter || typeof filter !== 'object') return;
    const f = filter as Record<string, unknown>;
    // The old vocabulary only: an older caller naming the new value gets the old version's refusal.
    if (f.value === 'data_source') {
      throw new ValidationFailure({
        part: 'body',
        path: ['filter', 'value'],
        rule: { name: 'enum', allowed: ['page', 'database'] },
        actual: { value: f.value },
      });
    }
    if (f.value === 'database') f.value = 'data_source';
  },
  downgradeDocument(document) {
    const value = requestSchema(document, ROUTE)?.properties?.filter?.properties?.value;
    if (value && Array.isArray(value.enum)) value.enum = value.enum.map((v) => (v === 'data_source' ? 'database' : v));
    const list = successSchema(document, ROUTE);
    renameListType(list, 'page_or_data_source', 'page_or_database');
    const variants = list?.properties?.results?.items?.anyOf;
    for (const variant of variants ?? []) {
      if (literalOf(variant.properties?.object) !== 'data_source' || !variant.properties) continue;
      // asDatabase: the data source's fields under the database's id, url and parent.
      variant.properties.object = { type: 'string', enum: ['database'] };
      variant.properties.parent = { type: 'object', description: 'The database’s parent.' };
      removeProperty(variant, 'database_parent');
    }
  },
  downgradeResponse({ route, body }) {
    if (route !== ROUTE || !body || typeof body !== 'object' || (body as { object?: unknown }).object !== 'list') return body;
    const { page_or_data_source: _member, results, ...list } = body as Record<string, unknown>;
    const seen = new Set<unknown>();
    const converted: unknown[] = [];
    for (const item of Array.isArray(results) ? results : []) {
      const isSource = item !== null && typeof item === 'object' && (item as { object?: unknown }).object === 'data_source';
      if (!isSource) {
        converted.push(item);
        continue;
      }
      const database = asDatabase(item as Record<string, unknown>);
      // A database with several sources was one result before the split.
      if (seen.has(database.id)) continue;
      seen.add(database.id);
      converted.push(database);
    }
    return { ...list, type: 'page_or_database', page_or_database: {}, results: converted };
  },
};
