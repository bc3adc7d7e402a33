import { sql } from 'kysely';
import { FALSE, itemIn, not, relatedIn, smallestItem, TRUE, type Cond } from '../../../storage/query/sqlPieces.js';
import { EMPTY_CHECKS, parseOperator, type FilterConditions } from './operators.js';

/**
 * people, created_by, last_edited_by: user ids. Authors are the page row's own columns and never
 * empty. `me` is the connection's user; an internal connection has none, so `contains: me`
 * matches nothing and `does_not_contain: me` everything (spec "Filter object").
 */
export const peopleConditions: FilterConditions = {
  keys: ['people'],
  parse: (condition, path, ctx) => parseOperator(condition, path, { contains: 'person', does_not_contain: 'person', ...EMPTY_CHECKS }, ctx.now),
  sortKeys: (target, env) => [target.row ? target.page.col(target.row.column) : smallestItem(env, target)],
  compile({ op, value }, target, env) {
    const user = value === 'me' ? env.me : (value as string);
    let holds: Cond;
    if (target.row) {
      if (op === 'is_empty') return FALSE;
      if (op === 'is_not_empty') return TRUE;
      holds = user === null ? FALSE : sql<boolean>`${target.page.col(target.row.column)} = ${user}`;
    } else {
      const notEmpty = itemIn(env, target, () => TRUE);
      if (op === 'is_empty') return not(notEmpty);
      if (op === 'is_not_empty') return notEmpty;
      holds = user === null ? FALSE : itemIn(env, target, (i) => sql<boolean>`${i.col('item')} = ${user}`, 'indexed');
    }
    return op === 'contains' ? holds : not(holds);
  },
};

/** relation: related pages not in the trash (a page in the trash has left the relation). */
export const relationConditions: FilterConditions = {
  keys: [],
  parse: (condition, path, ctx) => parseOperator(condition, path, { contains: 'page_id', does_not_contain: 'page_id', ...EMPTY_CHECKS }, ctx.now),
  sortKeys: (target, env) => [smallestItem(env, target)],
  compile({ op, value }, target, env) {
    const relationId = target.property!.id;
    const notEmpty = relatedIn(env, target, relationId, () => TRUE);
    if (op === 'is_empty') return not(notEmpty);
    if (op === 'is_not_empty') return notEmpty;
    const holds = relatedIn(env, target, relationId, (r) => sql<boolean>`${r.col('id')} = ${value}`, 'indexed');
    return op === 'contains' ? holds : not(holds);
  },
};

/** files: only whether there are any. */
export const filesConditions: FilterConditions = {
  keys: [],
  parse: (condition, path, ctx) => parseOperator(condition, path, EMPTY_CHECKS, ctx.now),
  sortKeys: (target, env) => [smallestItem(env, target)],
  compile({ op }, target, env) {
    const notEmpty = itemIn(env, target, () => TRUE);
    return op === 'is_empty' ? not(notEmpty) : notEmpty;
  },
};
