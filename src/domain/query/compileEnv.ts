import type { Property, Schema } from '../properties/schemaTypes.js';
import type { SqlEnv, ValueTarget } from '../../storage/query/sqlPieces.js';

/** A value that is the page row's own column (types/definition.ts `FromPageRow` has this shape). */
export interface RowValue {
  readonly column: 'created_time' | 'last_edited_time' | 'created_by' | 'last_edited_by';
}

/** What a condition is about: one property of the pages of one data source, seen through `page` (an alias of `objects`). */
export interface Target extends ValueTarget {
  /** Null for the `timestamp` filter, which names no property. */
  property: Property | null;
  /** Set when the value is the page row's own column (timestamps, authors): read there, never from a stored copy. */
  row: RowValue | null;
}

/** What compiling needs besides the tree: the store's dialect and aliases (SqlEnv), the clock and the caller. */
export interface CompileEnv extends SqlEnv {
  /** The query's time: relative dates, windows and verification expiry. */
  now: Date;
  /** The user `me` stands for; null for an internal connection. */
  me: string | null;
  /** Schemas of related data sources (rollup conditions read the rolled-up property there). */
  schemaOf(dataSourceId: string): Schema | undefined;
}
