import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { Dialect } from '../../storage/dialect.js';
import type { ObjectRow } from '../../storage/schema.js';
import { findObjects } from '../../storage/repositories/objects.js';
import { afterKeys, pagesOf, selectPage, valueJoin, type Key, type KeyedRow } from '../../storage/query/selectPage.js';
import { aliasMaker, type Cond, type PageSet } from '../../storage/query/sqlPieces.js';
import { isTimeDependent } from '../properties/formulaSchema.js';
import { parsedSchema } from '../properties/parsedSchemas.js';
import { refreshTimeDependent } from '../properties/refreshTimeDependent.js';
import type { CompileEnv } from './compileEnv.js';
import { dataSourcesRead } from './dataSourcesRead.js';
import { badCursor, listingCursor, listingKey, readListingCursor } from './listingCursor.js';
import { orderTerms } from './orderTerms.js';
import { parseFilter } from './parseFilter.js';
import { parseSorts } from './parseSorts.js';
import { relatedSchemas, formulaResults } from './relatedSchemas.js';
import { readFromIndex, readOrder, sortPath } from './sortPath.js';
import { conjuncts } from './walkOrDrive.js';

/** FACTS.md §3: a query stops after 10,000 results. */
export const QUERY_RESULT_LIMIT = 10_000;

/** What a listing of a data source's pages is asked for: what a query's body (or a view) gives. */
export interface ListingRequest {
  /** The filter as sent (checked here); null for none. */
  filter: unknown;
  /** The sorts as sent (checked here). */
  sorts: readonly unknown[];
  inTrash: boolean;
  pageSize: number;
  startCursor?: string;
  /** `data_source` lists no pages (a database's query asking for its data sources). */
  resultType: 'page' | 'data_source';
  /**
   * Only the ids are wanted (a view query keeps up to 10,000 of them): the statement reads keys,
   * never whole rows, and no rows are loaded after it.
   */
  idsOnly?: boolean;
}

/** Who lists, when, on which store. */
export interface ListingEnv {
  dialect: Dialect;
  now: Date;
  caller: Caller;
}

/** One page of a listing: the page rows in order, and where it continues. */
export interface Listing {
  /** Empty when only ids were asked for. */
  pages: ObjectRow[];
  /** The ids of the pages, in order. */
  ids: string[];
  nextCursor: string | null;
  incomplete: boolean;
}

/**
 * The pages of one data source that satisfy the filter, in the requested order, one page of
 * results per call (FACTS.md §5; docs/decisions.md "Queries"). The filter and sorts are compiled
 * to one SQL statement that selects the page ids and the sort keys; the plan (walk or drive,
 * walkOrDrive.ts; read from a sort's index or sorted, sortPath.ts) is chosen here. Cursors are
 * keysets (listingCursor.ts). Callers present the pages.
 */
export async function runListing(db: Db, { dialect, now, caller }: ListingEnv, source: ObjectRow, request: ListingRequest): Promise<Listing> {
  const schema = parsedSchema(source.id, source.content).schema;
  const schemas = await relatedSchemas(db, source, schema);
  const schemaOf = (id: string) => schemas.get(id);
  const formulaResultOf = formulaResults(schemas);
  const filter = request.filter === null ? null : parseFilter(request.filter, { dataSourceId: source.id, schema, schemaOf, formulaResultOf, now });
  const sorts = parseSorts(request.sorts, schema);

  const listing = listingKey({
    dataSourceId: source.id,
    filter: request.filter,
    sorts: request.sorts,
    inTrash: request.inTrash,
    resultType: request.resultType,
  });
  const { seen, after } = readListingCursor(request.startCursor, listing);
  const limit = Math.min(request.pageSize, QUERY_RESULT_LIMIT - seen);
  if (limit <= 0 || request.resultType === 'data_source') return { pages: [], ids: [], nextCursor: null, incomplete: limit <= 0 };

  // Time-dependent values are stored as of `now` before the statement reads them.
  for (const [dataSourceId, propertyIds] of dataSourcesRead(filter, sorts, source.id)) {
    const readSchema = schemas.get(dataSourceId);
    if (readSchema && propertyIds.some((id) => isTimeDependent(readSchema[id]))) {
      await refreshTimeDependent(db, caller.workspaceId, dataSourceId, readSchema, now);
    }
  }

  const sets = new Map<Cond, PageSet>();
  const env: CompileEnv = { dialect, now, me: caller.userId, schemaOf, alias: aliasMaker(), sets };
  const p = env.alias('p');
  const { terms, joins, first } = orderTerms(sorts, p, source.id, env);
  if (after && after.length !== terms.length) badCursor(request.startCursor as string);

  const order = readOrder(sorts.length > 0, first !== null);
  const where: Cond[] = pagesOf(p, source.id, request.inTrash);
  let driven = false;
  if (filter) {
    const found = await conjuncts(db, filter, p, source.id, env, order, limit);
    where.push(...found.conds);
    driven = found.driven;
  }
  if (after) where.push(afterKeys(terms, after));
  const path = sortPath(order, driven);
  // Reading ids alone, no statement needs the page rows: the same plan reads only the keys.
  const withRows = path.withRows && !request.idsOnly;
  let rows: KeyedRow[];
  if (path.halves) {
    rows = await readFromIndex(db, dialect, p, { terms, joins, where }, first!, source.id, after, limit + 1, withRows);
  } else {
    if (path.joinLead) joins.unshift(valueJoin(p, first!.value, first!.propertyId));
    rows = (await selectPage(dialect, p, { terms, joins, where }, limit + 1, null, withRows).execute(db)).rows;
  }

  const taken = rows.slice(0, limit);
  let pages: ObjectRow[];
  let ids: string[];
  if (withRows) {
    pages = taken as unknown as ObjectRow[];
    ids = pages.map((row) => row.id);
  } else {
    ids = taken.map((r) => r[`k${terms.length - 1}`] as string);
    if (request.idsOnly) {
      pages = [];
    } else {
      const byId = new Map((await findObjects(db, ids)).map((row) => [row.id, row]));
      pages = ids.map((id) => byId.get(id)).filter((row): row is ObjectRow => row?.object === 'page');
      ids = pages.map((row) => row.id);
    }
  }
  const more = rows.length > limit;
  const reachedCap = seen + taken.length >= QUERY_RESULT_LIMIT;
  const last = taken[taken.length - 1];
  const keys = terms.map((_, i) => (last?.[`k${i}`] ?? null) as Key);
  const nextCursor = more && !reachedCap ? listingCursor(listing, seen + taken.length, keys) : null;
  return { pages, ids, nextCursor, incomplete: more && reachedCap };
}
