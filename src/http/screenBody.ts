import { ValidationFailure, type FieldPath } from '../errors/validationFailure.js';

/**
 * How deeply a JSON body may nest: the body itself is level 1. The deepest body the API reads is
 * far shallower (two levels of block children are about 15), while every walk over a body after
 * this (validation and its messages, the version engine, rich text, block trees, filters) recurses,
 * and at some thousands of levels a recursive walk runs out of stack: a 500 (issue 29). Checked
 * once here, as the body is parsed, so no later walk meets a deeper one (docs/decisions.md).
 */
export const MAX_BODY_DEPTH = 100;

/** A value met on the walk; the path is rebuilt from the parents only when something is refused. */
interface Visit {
  value: unknown;
  key: string | number | null;
  parent: Visit | null;
  level: number;
}

type Refusal = { path: FieldPath; why: 'nul' | 'proto' | 'depth' };

function pathOf(visit: Visit): FieldPath {
  const path: (string | number)[] = [];
  for (let at: Visit | null = visit; at !== null && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The first string (value or key) holding U+0000, member named __proto__, or value nested past
 * MAX_BODY_DEPTH, in document order, with its path. Iterative, so the body's depth cannot exhaust
 * the stack before it is checked.
 */
function findRefused(body: unknown): Refusal | null {
  const stack: Visit[] = [{ value: body, key: null, parent: null, level: 1 }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { value, key } = visit;
    if (typeof key === 'string') {
      if (key.includes('\u0000')) return { path: pathOf(visit), why: 'nul' };
      if (key === '__proto__') return { path: pathOf(visit), why: 'proto' };
    }
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { path: pathOf(visit), why: 'nul' };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (visit.level > MAX_BODY_DEPTH) return { path: pathOf(visit), why: 'depth' };
    const level = visit.level + 1;
    // Pushed last to first, so members are checked in document order.
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: visit, level });
    } else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: (value as Record<string, unknown>)[keys[i]], key: keys[i], parent: visit, level });
    }
  }
  return null;
}

const RULES = {
  nul: { rule: { name: 'custom', expectation: 'should not contain the character U+0000' }, actual: { value: '…\u0000…' } },
  proto: { rule: { name: 'not_allowed', reason: '"__proto__" cannot be used as a name' }, actual: null },
  depth: { rule: { name: 'custom', expectation: `should be nested at most ${MAX_BODY_DEPTH} levels deep` }, actual: { words: 'deeper' } },
} as const;

/**
 * Three things in a JSON body are refused up front, naming the field, so that no store or code
 * path meets them:
 * - U+0000: PostgreSQL text cannot hold it and SQLite would store it, so one store would fail with
 *   a 500 where the other succeeds.
 * - a member named `__proto__` (a property, option or schema name): JSON.parse keeps it as a
 *   member, but assigning it to an object sets the prototype instead, so it would vanish without
 *   an error on the way to the store.
 * - nesting deeper than MAX_BODY_DEPTH.
 */
export function screenBody(body: unknown): void {
  const found = findRefused(body);
  if (found === null) return;
  throw new ValidationFailure({ part: 'body', path: found.path, ...RULES[found.why] });
}
