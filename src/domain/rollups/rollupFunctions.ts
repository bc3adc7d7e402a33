import { ROLLUP_FUNCTIONS, type RollupFunction } from '../../schemas/rollupFunctions.js';

export type RollupResultKind = 'number' | 'date' | 'array';

const DATE_FUNCTIONS: ReadonlySet<RollupFunction> = new Set(['earliest_date', 'latest_date', 'date_range']);
const ARRAY_FUNCTIONS: ReadonlySet<RollupFunction> = new Set(['show_unique', 'show_original', 'count_per_group', 'percent_per_group']);

export function isRollupFunction(value: unknown): value is RollupFunction {
  return typeof value === 'string' && (ROLLUP_FUNCTIONS as readonly string[]).includes(value);
}

/** The result type of a rollup function, known from the schema alone. */
export function rollupResultKind(fn: RollupFunction): RollupResultKind {
  if (DATE_FUNCTIONS.has(fn)) return 'date';
  if (ARRAY_FUNCTIONS.has(fn)) return 'array';
  return 'number';
}
