/**
 * Reads and writes of property values (the JSON text, its typed columns and the item rows SQL
 * filters read). Queries go through Kysely's builder: every value is a bound parameter.
 */
import { sql } from 'kysely';
import type { Insertable, Selectable } from 'kysely';
import { dialectOf } from '../dialect.js';
import type { Db } from '../db.js';
import { fixedStatement } from '../fixedStatement.js';
import type { PropertyValueTable } from '../schema.js';

export type PropertyValueRow = Selectable<PropertyValueTable>;

/** The columns a value may leave out (NULL): an upsert writes every one, so that it has one shape. */
const OPTIONAL_COLUMNS = ['data_source_id', 'text_value', 'text_folded', 'number_value', 'date_start', 'date_end', 'bool_value'] as const;

type StoredValue = Pick<PropertyValueRow, (typeof OPTIONAL_COLUMNS)[number] | 'value'>;

/** `value` and every optional column of `row`, those it leaves out as NULL. */
function storedValue(row: Insertable<PropertyValueTable>): StoredValue {
  return { value: row.value, ...(Object.fromEntries(OPTIONAL_COLUMNS.map((column) => [column, row[column] ?? null])) as Omit<StoredValue, 'value'>) };
}

const upsertValue = fixedStatement((db, row: PropertyValueRow) =>
  db
    .insertInto('property_values')
    .values({ page_id: row.page_id, property_id: row.property_id, ...storedValue(row) })
    .onConflict((oc) => oc.columns(['page_id', 'property_id']).doUpdateSet(storedValue(row))),
);

export async function upsertPropertyValue(db: Db, row: Insertable<PropertyValueTable>): Promise<void> {
  await upsertValue.run(db, { page_id: row.page_id, property_id: row.property_id, ...storedValue(row) });
}

/** Property values after `after` (page, property), in key order: the backfill's batches. */
export async function findValuesAfter(db: Db, after: readonly [string, string] | null, limit: number): Promise<PropertyValueRow[]> {
  let query = db.selectFrom('property_values').selectAll();
  if (after) {
    query = query.where((eb) => eb.or([eb('page_id', '>', after[0]), eb.and([eb('page_id', '=', after[0]), eb('property_id', '>', after[1])])]));
  }
  return query.orderBy('page_id').orderBy('property_id').limit(limit).execute();
}

/** Rewrites the typed columns of one value (not its items). */
export async function updateValueColumns(
  db: Db,
  pageId: string,
  propertyId: string,
  columns: Pick<PropertyValueRow, 'text_value' | 'text_folded' | 'number_value' | 'date_start' | 'date_end' | 'bool_value'>,
): Promise<void> {
  await db.updateTable('property_values').set(columns).where('page_id', '=', pageId).where('property_id', '=', propertyId).execute();
}

/** The typed columns of a property_values row and the rows of property_value_items, which SQL filters read. */
export type ValueColumns = Pick<PropertyValueTable, 'text_value' | 'text_folded' | 'number_value' | 'date_start' | 'date_end' | 'bool_value'> & {
  items: string[];
};

async function findWorkspaceUserIds(db: Db, workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** What normalising request values looks up in a workspace (domain/properties/valueContext.ts `ValueLookups`). */
export function valueLookups(db: Db, workspaceId: string) {
  return {
    workspaceUserIds: (ids: readonly string[]) => findWorkspaceUserIds(db, workspaceId, ids),
    pagesIn: (dataSourceId: string, ids: readonly string[]) => findPagesIn(db, workspaceId, dataSourceId, ids),
  };
}

/** Which of `ids` are pages of the data source (in the trash or not). */
async function findPagesIn(db: Db, workspaceId: string, dataSourceId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('objects')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('object', '=', 'page')
    .where('parent_type', '=', 'data_source_id')
    .where('parent_id', '=', dataSourceId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** What a page's presentation reads of a stored value; the typed filter columns are left behind. */
export type PresentedValueRow = Pick<PropertyValueRow, 'page_id' | 'property_id' | 'value'>;

/** Between a property id and its value, and between values, in loadPresentedValues' packed text: never in either (see there). */
const UNIT = '\x1f';
const RECORD = '\x1e';

/**
 * The values of many pages for presenting them (search, queries): only the JSON, since reading the
 * typed columns as well doubles the cost of a page of results (docs/benchmarks.md, "search").
 * Each page's values come as one text, `id US value RS id US value…`, split here: a row per page
 * instead of one per value halves the statement's cost (100 pages of 12 values: 0.77 ms against
 * 1.42 ms on SQLite), most of which is making a row object per value. The separators are control
 * characters, which JSON text never holds unescaped, and property ids are URL-safe. The ids are one
 * parameter (Dialect.inTextArray): building and compiling a list of 100 parameters cost Kysely
 * more than the statement's own reads (1.79 ms against 1.35 ms in all, 2026-11-25).
 */
export async function loadPresentedValues(db: Db, pageIds: readonly string[]): Promise<Map<string, PresentedValueRow[]>> {
  const byPage = new Map<string, PresentedValueRow[]>();
  if (pageIds.length === 0) return byPage;
  const packed = dialectOf(db).joinTexts(sql`property_id || ${UNIT} || value`, RECORD);
  const { rows } = await sql<{ page_id: string; packed: string }>`SELECT page_id, ${packed} AS packed FROM property_values WHERE ${dialectOf(db).inTextArray(
    'page_id',
    [...new Set(pageIds)],
  )} GROUP BY page_id`.execute(db);
  for (const { page_id, packed: text } of rows) {
    const values: PresentedValueRow[] = [];
    for (const part of text.split(RECORD)) {
      const at = part.indexOf(UNIT);
      values.push({ page_id, property_id: part.slice(0, at), value: part.slice(at + 1) });
    }
    byPage.set(page_id, values);
  }
  return byPage;
}

function groupByPage<Row extends { page_id: string }>(byPage: Map<string, Row[]>, rows: readonly Row[]): Map<string, Row[]> {
  for (const row of rows) {
    const list = byPage.get(row.page_id);
    if (list) list.push(row);
    else byPage.set(row.page_id, [row]);
  }
  return byPage;
}

/** Writes one value (its JSON text and its typed columns) and replaces its item rows. */
export async function writeValue(
  db: Db,
  pageId: string,
  dataSourceId: string | null,
  propertyId: string,
  value: string,
  { items, ...columns }: ValueColumns,
): Promise<void> {
  await upsertPropertyValue(db, { page_id: pageId, property_id: propertyId, data_source_id: dataSourceId, value, ...columns });
  await db.deleteFrom('property_value_items').where('page_id', '=', pageId).where('property_id', '=', propertyId).execute();
  const unique = [...new Set(items)];
  if (unique.length) {
    await db
      .insertInto('property_value_items')
      .values(unique.map((item) => ({ page_id: pageId, property_id: propertyId, item })))
      .execute();
  }
}

/** Removes the values of deleted properties from every page of a data source. */
export async function deleteValues(db: Db, dataSourceId: string, propertyIds: readonly string[]): Promise<void> {
  if (propertyIds.length === 0) return;
  const pages = db.selectFrom('objects').select('id').where('parent_type', '=', 'data_source_id').where('parent_id', '=', dataSourceId);
  await db.deleteFrom('property_value_items').where('property_id', 'in', propertyIds).where('page_id', 'in', pages).execute();
  await db.deleteFrom('property_values').where('property_id', 'in', propertyIds).where('page_id', 'in', pages).execute();
}

/** The list of pages is one parameter, so the statement is built once whatever its length. */
const valuesOfPages = fixedStatement((db, args: { pageIds: unknown }) =>
  db.selectFrom('property_values').selectAll().where(dialectOf(db).inTextList('page_id', args.pageIds)),
);

export async function loadValues(db: Db, pageIds: readonly string[]): Promise<Map<string, PropertyValueRow[]>> {
  const byPage = new Map<string, PropertyValueRow[]>();
  if (pageIds.length === 0) return byPage;
  const rows = await valuesOfPages.rows(db, { pageIds: dialectOf(db).textList([...new Set(pageIds)]) });
  return groupByPage(byPage, rows);
}

/** Pages whose multi-valued properties hold one of `items` (for relations: pages related to them). */
export async function findItemHolders(
  db: Db,
  items: readonly string[],
): Promise<{ page_id: string; property_id: string; item: string; data_source_id: string | null }[]> {
  if (items.length === 0) return [];
  return db
    .selectFrom('property_value_items as i')
    .innerJoin('objects as o', 'o.id', 'i.page_id')
    .select(['i.page_id', 'i.property_id', 'i.item', 'o.parent_id as data_source_id'])
    .where('i.item', 'in', [...new Set(items)])
    .where('o.parent_type', '=', 'data_source_id')
    .execute();
}

/**
 * The items of `propertyIds` on `pageIds` that are objects in the trash: for relations, the related
 * pages a reader must not see. Read from the items table, so a page of results costs one statement
 * however many relations it holds, and no stored relation value is parsed to find out.
 */
export async function findTrashedItems(
  db: Db,
  pageIds: readonly string[],
  propertyIds: readonly string[],
): Promise<{ page_id: string; property_id: string; item: string }[]> {
  if (pageIds.length === 0 || propertyIds.length === 0) return [];
  const dialect = dialectOf(db);
  return db
    .selectFrom('property_value_items as i')
    .innerJoin('objects as r', 'r.id', 'i.item')
    .select(['i.page_id', 'i.property_id', 'i.item'])
    .where(dialect.inTextArray('i.page_id', [...new Set(pageIds)]))
    .where(dialect.inTextArray('i.property_id', [...new Set(propertyIds)]))
    .where('r.in_trash', '=', 1)
    .execute();
}

/** Pages of data sources holding, as an item of a property, an object of the subtree under `rootId` (itself included). */
export async function findHoldersOfSubtree(
  db: Db,
  rootId: string,
): Promise<{ page_id: string; property_id: string; data_source_id: string | null; workspace_id: string }[]> {
  return db
    .selectFrom('property_value_items as i')
    .innerJoin('objects as o', 'o.id', 'i.page_id')
    .select(['i.page_id', 'i.property_id', 'o.parent_id as data_source_id', 'o.workspace_id'])
    .where('i.item', 'in', (eb) => eb.selectFrom('object_ancestors').select('descendant_id').where('ancestor_id', '=', rootId))
    .where('o.parent_type', '=', 'data_source_id')
    .execute();
}

/** Removes every value of one page: a page moving between data sources rewrites the ones it keeps. */
export async function deletePageValues(db: Db, pageId: string): Promise<void> {
  await db.deleteFrom('property_value_items').where('page_id', '=', pageId).execute();
  await db.deleteFrom('property_values').where('page_id', '=', pageId).execute();
}
