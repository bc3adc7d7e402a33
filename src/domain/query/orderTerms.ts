import type { RawBuilder } from 'kysely';
import { valueJoin, type IndexedFirstKey, type OrderTerm } from '../../storage/query/selectPage.js';
import type { Alias } from '../../storage/query/sqlPieces.js';
import { SORT_INDEXES } from './conditions/operators.js';
import type { CompileEnv } from './compileEnv.js';
import type { SortSpec } from './parseSorts.js';

/** The listing's order: its terms, the joins of the values they read, and the first sort's index when it has one. */
export interface Order {
  terms: OrderTerm[];
  /** The statement's LEFT JOINs, added to as the filter compiles (env.joinValue). */
  joins: RawBuilder<unknown>[];
  /** Set when the first sort's value is read from its ordering index (sortPath.ts). */
  first: IndexedFirstKey | null;
}

/**
 * The ORDER BY terms of `sorts` over the page row `p`, then the tie-break, which is also the whole
 * order without sorts: creation, then id (docs/decisions.md); the id is always the last term.
 * Sets `env.joinValue`: a sorted value is joined once per property (storage/query/sqlPieces.ts
 * `storedColumn`). A sort led by a value with an ordering index reads pages from that index:
 * that value's row is then the statement's first table rather than a join.
 */
export function orderTerms(sorts: readonly SortSpec[], p: Alias, dataSourceId: string, env: CompileEnv): Order {
  const joins: RawBuilder<unknown>[] = [];
  const joined = new Map<string, Alias>();
  const lead = sorts[0];
  const leadColumn = lead?.property && lead.family?.sortIndex?.({ page: p, dataSourceId, property: lead.property, row: lead.row });
  const first: IndexedFirstKey | null = leadColumn
    ? { value: env.alias('s'), propertyId: lead.property!.id, column: leadColumn, index: SORT_INDEXES[leadColumn] }
    : null;
  if (first) joined.set(first.propertyId, first.value);
  env.joinValue = (page, propertyId) => {
    if (page !== p) return undefined;
    let s = joined.get(propertyId);
    if (!s) {
      s = env.alias('s');
      joined.set(propertyId, s);
      joins.push(valueJoin(p, s, propertyId));
    }
    return s;
  };
  const terms: OrderTerm[] = [];
  for (const sort of sorts) {
    const target = { page: p, dataSourceId, property: sort.property, row: sort.row };
    const exprs = sort.family ? sort.family.sortKeys(target, env) : [p.col(sort.row!.column)];
    for (const expr of exprs) terms.push({ expr, descending: sort.descending, nullable: sort.row === null });
  }
  terms.push({ expr: p.col('created_time'), descending: false, nullable: false }, { expr: p.col('id'), descending: false, nullable: false });
  return { terms, joins, first };
}
