import { sql, type RawBuilder } from 'kysely';
import { all, FALSE, not, storedColumn, TRUE, valueIn, type Cond } from '../../../storage/query/sqlPieces.js';
import { windowOf, type DateOperand, type DateWindow } from '../dateOperands.js';
import { DATE_TABLE, parseOperator, type FilterConditions, type ParsedCondition } from './operators.js';

/**
 * How a value's range [s, e] (e = s without an end) meets an operand: an instant t, or a UTC day
 * [d0, d1) (docs/decisions.md, "How a value meets an operand"). Dates are compared as the ISO
 * text both sides are written in, which orders as the instants do.
 */
function meets(op: string, operand: DateOperand, s: RawBuilder<unknown>, e: RawBuilder<unknown>): Cond {
  if (operand.kind === 'instant') {
    const t = operand.at;
    switch (op) {
      case 'equals':
        return all([sql<boolean>`${s} <= ${t}`, sql<boolean>`${e} >= ${t}`]);
      case 'before':
        return sql<boolean>`${s} < ${t}`;
      case 'after':
        return sql<boolean>`${e} > ${t}`;
      case 'on_or_before':
        return sql<boolean>`${s} <= ${t}`;
      default:
        return sql<boolean>`${e} >= ${t}`;
    }
  }
  const { from, to } = operand;
  switch (op) {
    case 'equals':
      return all([sql<boolean>`${s} < ${to}`, sql<boolean>`${e} >= ${from}`]);
    case 'before':
      return sql<boolean>`${s} < ${from}`;
    case 'after':
      return sql<boolean>`${e} >= ${to}`;
    case 'on_or_before':
      return sql<boolean>`${s} < ${to}`;
    default:
      return sql<boolean>`${e} >= ${from}`;
  }
}

/** The condition over a range's start and end columns; windows are [from, to) and match ranges overlapping them. */
function rangeCondition({ op, value }: ParsedCondition, s: RawBuilder<unknown>, e: RawBuilder<unknown>, now: Date): Cond {
  if (op in WINDOW_OPS) {
    // Read at compile time: the filter's answers move with the clock (filterReadsClock.ts).
    const { from, to } = windowOf(op as DateWindow, now);
    return all([sql<boolean>`${s} < ${to}`, sql<boolean>`${e} >= ${from}`]);
  }
  return meets(op, value as DateOperand, s, e);
}

const WINDOW_OPS: Record<string, true> = Object.fromEntries(
  Object.entries(DATE_TABLE)
    .filter(([, kind]) => kind === 'empty_object')
    .map(([op]) => [op, true]),
);

/**
 * date, created_time, last_edited_time (and date results of formulas and rollups): stored dates
 * are UTC instants in date_start/date_end; the timestamps are the page row's own columns, never
 * empty.
 */
export const dateConditions: FilterConditions = {
  keys: ['date'],
  parse: (condition, path, ctx) => parseOperator(condition, path, DATE_TABLE, ctx.now),
  sortKeys: (target, env) =>
    target.row ? [target.page.col(target.row.column)] : [storedColumn(env, target, 'date_start'), storedColumn(env, target, 'date_end')],
  sortIndex: (target) => (target.row ? null : 'date_start'),
  compile(condition, target, env) {
    const { op } = condition;
    if (target.row) {
      if (op === 'is_empty') return FALSE;
      if (op === 'is_not_empty') return TRUE;
      const at = target.page.col(target.row.column);
      return rangeCondition(condition, at, at, env.now);
    }
    const notEmpty = valueIn(env, target, (v) => sql<boolean>`${v.col('date_start')} IS NOT NULL`, 'indexed');
    if (op === 'is_empty') return not(notEmpty);
    if (op === 'is_not_empty') return notEmpty;
    // Only an upper bound on the start is a range of the date index; the others read the end too.
    const onStart = op === 'before' || op === 'on_or_before';
    return valueIn(
      env,
      target,
      (v) =>
        all([
          sql<boolean>`${v.col('date_start')} IS NOT NULL`,
          rangeCondition(condition, v.col('date_start'), sql`COALESCE(${v.col('date_end')}, ${v.col('date_start')})`, env.now),
        ]),
      onStart ? 'indexed' : 'scanned',
    );
  },
};
