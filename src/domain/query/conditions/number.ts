import { sql } from 'kysely';
import { not, storedColumn, valueIn, type Cond } from '../../../storage/query/sqlPieces.js';
import { EMPTY_CHECKS, parseOperator, type FilterConditions, type OperandKind } from './operators.js';

const COMPARISONS = {
  equals: 'number',
  does_not_equal: 'number',
  greater_than: 'number',
  greater_than_or_equal_to: 'number',
  less_than: 'number',
  less_than_or_equal_to: 'number',
} as const satisfies Record<string, OperandKind>;

const SQL_OPERATORS: Record<string, string> = {
  equals: '=',
  greater_than: '>',
  greater_than_or_equal_to: '>=',
  less_than: '<',
  less_than_or_equal_to: '<=',
};

function numberFamily(table: Readonly<Record<string, OperandKind>>, keys: readonly string[]): FilterConditions {
  return {
    keys,
    parse: (condition, path, ctx) => parseOperator(condition, path, table, ctx.now),
    sortKeys: (target, env) => [storedColumn(env, target, 'number_value')],
    sortIndex: () => 'number_value',
    compile({ op, value }, target, env) {
      const notEmpty = valueIn(env, target, (v) => sql<boolean>`${v.col('number_value')} IS NOT NULL`, 'indexed');
      if (op === 'is_empty') return not(notEmpty);
      if (op === 'is_not_empty') return notEmpty;
      const compare = (symbol: string): Cond => valueIn(env, target, (v) => sql<boolean>`${v.col('number_value')} ${sql.raw(symbol)} ${value}`, 'indexed');
      // An empty value is not equal to any number (docs/decisions.md, "Negative conditions").
      return op === 'does_not_equal' ? not(compare('=')) : compare(SQL_OPERATORS[op]);
    },
  };
}

/** number, and number results of formulas and rollups: on `number_value`. */
export const numberConditions = numberFamily({ ...COMPARISONS, ...EMPTY_CHECKS }, ['number']);

/** unique_id: the number part, compared as a number; an id is never empty, so no empty checks. */
export const uniqueIdConditions = numberFamily(COMPARISONS, []);
