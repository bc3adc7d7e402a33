import { sql } from 'kysely';
import { not, storedColumn, valueIn } from '../../../storage/query/sqlPieces.js';
import { parseOperator, type FilterConditions } from './operators.js';

/**
 * checkbox, and boolean formula results: a value is checked or not; an empty formula result is
 * not checked, so `equals false` matches it.
 */
export const checkboxConditions: FilterConditions = {
  keys: ['checkbox'],
  parse: (condition, path, ctx) => parseOperator(condition, path, { equals: 'boolean', does_not_equal: 'boolean' }, ctx.now),
  sortKeys: (target, env) => [storedColumn(env, target, 'bool_value')],
  compile({ op, value }, target, env) {
    const checked = valueIn(env, target, (v) => sql<boolean>`${v.col('bool_value')} = 1`, 'indexed');
    const wantChecked = (op === 'equals') === (value === true);
    return wantChecked ? checked : not(checked);
  },
};
