import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { Dialect } from '../../storage/dialect.js';
import type { ObjectRow } from '../../storage/schema.js';
import { findObjects } from '../../storage/repositories/objects.js';
import {
  afterKeys,
  countPagesUpTo,
  countRowsUpTo,
  countSetRowsUpTo,
  pageIdsOf,
  pagesOf,
  pagesOfDriven,
  selectPage,
  valueJoin,
  type Key,
  type KeyedRow,
} from '../../storage/query/selectPage.js';
import { aliasMaker, negatedOf, type Alias, type Cond, type PageSet } from '../../storage/query/sqlPieces.js';
import { compileFilter } from './compileFilter.js';
import { isTimeDependent } from '../properties/formulaSchema.js';
import { parsedSchema } from '../properties/parsedSchemas.js';
import { refreshTimeDependent } from '../properties/refreshTimeDependent.js';
import type { CompileEnv } from './compileEnv.js';
import { dataSourcesRead } from './dataSourcesRead.js';
import { badCursor, listingCursor, listingKey, readListingCursor } from './listingCursor.js';
import { orderTerms } from './orderTerms.js';
import { parseFilter, type FilterTree } from './parseFilter.js';
import { parseSorts } from './parseSorts.js';
import { relatedSchemas, formulaResults } from './relatedSchemas.js';
import { readFromIndex, readOrder, sortPath } from './sortPath.js';
import { conjuncts, countDriveLimit } from './walkOrDrive.js';
import { filterReadsClock } from './filterReadsClock.js';
import { countPagesOf } from '../../storage/query/planCounts.js';

/** FACTS.md §3: a query stops after 10,000 results. */
export const QUERY_RESULT_LIMIT = 10_000;

/** What a listing of a data source's pages is asked for: what a query's body (or a view) gives. */
export interface ListingRequest {
  /** The filter as sent (checked here); null for none. */
  filter: unknown;
  /**
   * Leaf filters ANDed with `filter` (a view's quick filters, each as `{property, …condition}`),
   * checked and joined as parsed trees, so they add no nesting level to the caller's filter.
   */
  alsoFilters?: readonly unknown[];
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
  /**
   * Whether the answer can change with the clock alone, with nothing written: the filter names a
   * relative date or a verification (filterReadsClock.ts), or a data source it reads has a
   * time-dependent formula or rollup. Such an
   * answer is never kept (src/storage/answerCache.ts).
   */
  readsClock: boolean;
}

/**
 * The pages of one data source that satisfy the filter, in the requested order, one page of
 * results per call (FACTS.md §5; docs/decisions.md "Queries"). The filter and sorts are compiled
 * to one SQL statement that selects the page ids and the sort keys; the plan (walk or drive,
 * walkOrDrive.ts; read from a sort's index or sorted, sortPath.ts) is chosen here. Cursors are
 * keysets (listingCursor.ts). Callers present the pages.
 */
/** Both filters as one checked tree: an `and` is flattened into its items, so no level is added. */
function allOf(trees: readonly (FilterTree | null)[]): FilterTree | null {
  const items = trees.flatMap((tree) => (tree === null ? [] : tree.kind === 'and' ? tree.items : [tree]));
  if (items.length <= 1) return trees.find((tree) => tree !== null) ?? null;
  return { kind: 'and', items };
}

/** The request's filter and sorts, checked against the data source's schema and its neighbours'. */
async function checkListing(db: Db, now: Date, source: ObjectRow, request: Pick<ListingRequest, 'filter' | 'alsoFilters' | 'sorts'>) {
  const schema = parsedSchema(source.id, source.content).schema;
  const schemas = await relatedSchemas(db, source, schema);
  const schemaOf = (id: string) => schemas.get(id);
  const filterSource = { dataSourceId: source.id, schema, schemaOf, formulaResultOf: formulaResults(schemas), now };
  const parse = (raw: unknown) => (raw === null ? null : parseFilter(raw, filterSource));
  const filter = allOf([parse(request.filter), ...(request.alsoFilters ?? []).map(parse)]);
  const sorts = parseSorts(request.sorts, schema);
  const readsClock =
    filterReadsClock([request.filter, request.alsoFilters ?? []]) || [...schemas.values()].some((read) => Object.values(read).some(isTimeDependent));
  return { schemas, schemaOf, filter, sorts, readsClock };
}

/** Time-dependent values are stored as of `now` before a statement reads them. */
async function refreshRead(db: Db, { now, caller }: ListingEnv, source: ObjectRow, checked: Awaited<ReturnType<typeof checkListing>>): Promise<void> {
  for (const [dataSourceId, propertyIds] of dataSourcesRead(checked.filter, checked.sorts, source.id)) {
    const readSchema = checked.schemas.get(dataSourceId);
    if (readSchema && propertyIds.some((id) => isTimeDependent(readSchema[id]))) {
      await refreshTimeDependent(db, caller.workspaceId, dataSourceId, readSchema, now);
    }
  }
}

export async function runListing(db: Db, listingEnv: ListingEnv, source: ObjectRow, request: ListingRequest): Promise<Listing> {
  const { dialect, now, caller } = listingEnv;
  const checked = await checkListing(db, now, source, request);
  const { schemaOf, filter, sorts } = checked;

  const listing = listingKey({
    dataSourceId: source.id,
    filter: request.alsoFilters?.length ? { and: [request.filter, ...request.alsoFilters] } : request.filter,
    sorts: request.sorts,
    inTrash: request.inTrash,
    resultType: request.resultType,
  });
  const { seen, after } = readListingCursor(request.startCursor, listing);
  const limit = Math.min(request.pageSize, QUERY_RESULT_LIMIT - seen);
  const { readsClock } = checked;
  if (limit <= 0 || request.resultType === 'data_source') return { pages: [], ids: [], nextCursor: null, incomplete: limit <= 0, readsClock };

  await refreshRead(db, listingEnv, source, checked);

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
    if (driven) where.splice(0, 2, ...pagesOfDriven(dialect, p, source.id, request.inTrash));
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
  return { pages, ids, nextCursor, incomplete: more && reachedCap, readsClock };
}

/**
 * The count of a filter whose conditions are each about the data source's own values, read from
 * the conditions' sets of value rows (PageSet.pagesOf: one row per page, in the trash or not)
 * rather than page by page: the rows are index entries (a select's option, a number's range, a
 * text's equality, a checkbox), or, for a scanned condition such as text `contains`, the
 * property's rows of one index, which holds the text compared (property_values_folded). No page
 * row, and no value row per page, is read (docs/benchmarks.md "viewQuery").
 *
 * The sets also hold the pages on the other side of the trash (`others`). One condition: its set
 * is counted up to `upTo` more than those, and when it holds fewer, those of them that match are
 * taken off (countOthersMatching: from the set's index when it ends in the page, else page by
 * page). An `and` of at most one condition and negations of conditions read from an index range:
 * the matches are at least the positive condition's rows less
 * `others` (or, with none, the pages) less every negated condition's rows, counted whole; when
 * that reaches `upTo`, the count is `upTo`. Null when it cannot tell: the caller counts pages.
 */
async function countFromSets(db: Db, filter: FilterTree, p: Alias, sourceId: string, env: CompileEnv, inTrash: boolean, upTo: number): Promise<number | null> {
  const items = filter.kind === 'and' ? filter.items : [filter];
  const positive: { set: PageSet; cond: Cond }[] = [];
  const negated: PageSet[] = [];
  for (const item of items) {
    const cond = compileFilter(item, p, sourceId, env);
    const inner = negatedOf(cond);
    const set = env.sets?.get(inner ?? cond);
    if (set?.pagesOf !== sourceId) return null;
    if (inner === undefined) positive.push({ set, cond });
    else if (set.scanned) return null;
    else negated.push(set);
  }
  if (positive.length > 1) return null;
  const others = await countPagesUpTo(db, p, pagesOf(p, sourceId, !inTrash), upTo);
  if (others >= upTo) return null;
  if (negated.length === 0) {
    const { set, cond } = positive[0];
    const rows = await countSetRowsUpTo(db, set, upTo + others);
    if (rows >= upTo + others) return upTo;
    return Math.min(upTo, rows - (others === 0 ? 0 : await countOthersMatching(db, set, cond, p, sourceId, env, inTrash, others)));
  }
  // Counted whole, so up to more rows than the data source can hold pages.
  const whole = (await countPagesOf(db, sourceId)) + others + upTo + 1;
  let excluded = 0;
  for (const set of negated) {
    const rows = await countSetRowsUpTo(db, set, whole);
    if (rows >= whole) return null;
    excluded += rows;
  }
  const needed = upTo + excluded;
  const held =
    positive.length === 1
      ? (await countSetRowsUpTo(db, positive[0].set, needed + others)) - others
      : await countPagesUpTo(db, p, pagesOf(p, sourceId, inTrash), needed);
  return held >= needed ? upTo : null;
}

/**
 * The pages on the other side of the trash (`others` of them) that satisfy `cond`, whose set is
 * `set`. When the set's index ends in the page (PageSet.among: a select's or a status's option),
 * one statement finds those of them in it, reading no page and no value row: 3,050 trashed pages
 * at 100,000 in 2.3–2.8 ms on SQLite (one seek each) and 3.5 ms on PostgreSQL (a hash join of two
 * index-only scans), where reading them one by one took 2.6–11 ms and 15–79 ms, and kept the view
 * query's first page at 1.5–2× the data-source query's (docs/benchmarks.md "View query with a
 * select filter"). Otherwise those pages are read one by one.
 */
async function countOthersMatching(
  db: Db,
  set: PageSet,
  cond: Cond,
  p: Alias,
  sourceId: string,
  env: CompileEnv,
  inTrash: boolean,
  others: number,
): Promise<number> {
  if (set.among) return countRowsUpTo(db, set.among(pageIdsOf(env.alias('p'), sourceId, !inTrash)), others);
  return countPagesUpTo(db, p, [...pagesOf(p, sourceId, !inTrash), cond], others);
}

/**
 * How many pages of the data source satisfy the request's filter, counted up to `upTo`: the
 * statement stops at the limit and sorts nothing, and its plan (walk, or drive from a condition's
 * set) is chosen as a listing's is for `upTo` results read in creation order (walkOrDrive.ts).
 */
export async function countListing(
  db: Db,
  listingEnv: ListingEnv,
  source: ObjectRow,
  request: Pick<ListingRequest, 'filter' | 'alsoFilters' | 'inTrash'>,
  upTo: number,
): Promise<number> {
  const { dialect, now, caller } = listingEnv;
  const checked = await checkListing(db, now, source, { ...request, sorts: [] });
  await refreshRead(db, listingEnv, source, checked);
  const env: CompileEnv = { dialect, now, me: caller.userId, schemaOf: checked.schemaOf, alias: aliasMaker(), sets: new Map<Cond, PageSet>() };
  const p = env.alias('p');
  const where: Cond[] = pagesOf(p, source.id, request.inTrash);
  if (checked.filter) {
    const counted = await countFromSets(db, checked.filter, p, source.id, env, request.inTrash, upTo);
    if (counted !== null) return counted;
    const driveUnder = countDriveLimit(await countPagesOf(db, source.id), upTo);
    where.push(...(await conjuncts(db, checked.filter, p, source.id, env, 'creation', upTo, driveUnder)).conds);
  }
  return countPagesUpTo(db, p, where, upTo);
}
