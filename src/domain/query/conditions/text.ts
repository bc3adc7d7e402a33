import { sql, type RawBuilder } from 'kysely';
import { foldText } from '../../foldText.js';
import { all, not, storedColumn, TRUE, valueIn, type Cond, type Indexed } from '../../../storage/query/sqlPieces.js';
import { EMPTY_CHECKS, parseOperator, type FilterConditions } from './operators.js';

const TABLE = {
  equals: 'string',
  does_not_equal: 'string',
  contains: 'string',
  does_not_contain: 'string',
  starts_with: 'string',
  ends_with: 'string',
  ...EMPTY_CHECKS,
} as const;

/**
 * Text conditions (title, rich_text, url, email, phone_number, formula strings), case-insensitive
 * on `text_folded` (docs/decisions.md "Text comparisons"). An empty value is the empty string:
 * it is stored as NULL, so `equals ""` is `is_empty` and the conditions every text satisfies
 * (`contains ""`, `starts_with ""`) need no value at all.
 */
export const textConditions: FilterConditions = {
  keys: ['rich_text', 'title', 'url', 'email', 'phone_number'],
  parse: (condition, path, ctx) => parseOperator(condition, path, TABLE, ctx.now),
  // Folded text first (the order a reader expects), then the text itself so the order is total.
  sortKeys: (target, env) => [
    env.dialect.binaryText(storedColumn(env, target, 'text_folded')),
    env.dialect.binaryText(storedColumn(env, target, 'text_value')),
  ],
  compile({ op, value }, target, env) {
    const text = op === 'is_empty' || op === 'is_not_empty' ? '' : foldText(value as string);
    const length = [...text].length;
    const has = (pred: (column: RawBuilder<unknown>) => Cond, indexed: Indexed = 'scanned'): Cond =>
      valueIn(env, target, (v) => pred(v.col('text_folded')), indexed, 'property_values_folded');
    const notEmpty = has((t) => sql<boolean>`${t} IS NOT NULL`, 'indexed');
    const equals = text === '' ? not(notEmpty) : has((t) => sql<boolean>`${t} = ${text}`, 'indexed');
    const contains = text === '' ? TRUE : has((t) => env.dialect.containsText(t, text));
    switch (op) {
      case 'equals':
        return equals;
      case 'does_not_equal':
        return not(equals);
      case 'contains':
        return contains;
      case 'does_not_contain':
        return not(contains);
      // substr counts characters in both stores; a stored text shorter than the operand never
      // equals it, whatever substr returns for a start before the first character.
      case 'starts_with':
        return text === '' ? TRUE : has((t) => sql<boolean>`substr(${t}, 1, ${length}) = ${text}`);
      case 'ends_with':
        return text === ''
          ? TRUE
          : has((t) => all([sql<boolean>`length(${t}) >= ${length}`, sql<boolean>`substr(${t}, length(${t}) - ${length} + 1) = ${text}`]));
      case 'is_empty':
        return not(notEmpty);
      default:
        return notEmpty;
    }
  },
};
