import { sql } from 'kysely';
import { all, any, not, storedColumn, TRUE, valueIn, type Cond } from '../../../storage/query/sqlPieces.js';
import { parseOperator, type FilterConditions } from './operators.js';

/**
 * verification: `verified` while no end date has passed, `expired` once it has, `none` when not
 * verified (docs/decisions.md); the end is compared with the query's clock.
 */
export const verificationConditions: FilterConditions = {
  keys: [],
  parse: (condition, path, ctx) => parseOperator(condition, path, { status: 'verification', does_not_equal: 'verification' }, ctx.now),
  sortKeys: (target, env) => [storedColumn(env, target, 'text_value')],
  compile({ op, value }, target, env) {
    // Read at compile time: the filter's answers move with the clock (filterReadsClock.ts).
    const now = env.now.toISOString();
    const verified = (extra: (end: ReturnType<typeof sql.raw>) => Cond): Cond =>
      valueIn(env, target, (v) => all([sql<boolean>`${v.col('text_value')} = 'verified'`, extra(v.col('date_end'))]));
    let is: Cond;
    if (value === 'verified') is = verified((end) => any([sql<boolean>`${end} IS NULL`, sql<boolean>`${end} >= ${now}`]));
    else if (value === 'expired') is = verified((end) => sql<boolean>`${end} < ${now}`);
    else is = not(verified(() => TRUE));
    return op === 'status' ? is : not(is);
  },
};
