import { S, T, elementType, typeName, unify, type Ty } from '../typeSystem.js';
import type { FormulaValue } from '../types.js';
import { asList, asNumber, clampList, compareValues, dateRangeOf, isPage, isPerson, valuesEqual } from '../values.js';
import { simple, type CheckCall, type FunctionDef } from './functionDef.js';

function index(v: FormulaValue, fallback: number): number {
  const n = asNumber(v);
  return n === null ? fallback : Math.trunc(n);
}

export const atFn = simple(
  'at',
  [S.list, S.number],
  (c) => elementType(c.types[0]),
  ([list, i]) => {
    const items = asList(list);
    const n = index(i, Number.NaN);
    return Number.isNaN(n) ? null : (items.at(n) ?? null);
  },
);

export const firstFn = simple(
  'first',
  [S.list],
  (c) => elementType(c.types[0]),
  ([list]) => asList(list)[0] ?? null,
);
export const lastFn = simple(
  'last',
  [S.list],
  (c) => elementType(c.types[0]),
  ([list]) => asList(list).at(-1) ?? null,
);

/** slice works on lists and, like JavaScript, on text; negative indexes count from the end. */
export const sliceFn = simple(
  'slice',
  [S.stringOrList, S.number, S.number],
  (c) => (c.types[0].kind === 'empty' ? T.list(T.empty) : c.types[0]),
  ([v, start, end], c) => {
    const from = index(start, 0);
    if (c.type.kind === 'string') {
      const s = typeof v === 'string' ? v : '';
      return s.slice(from, end === undefined ? undefined : index(end, s.length));
    }
    const items = asList(v);
    return items.slice(from, end === undefined ? undefined : index(end, items.length));
  },
  { optional: 1 },
);

/** concat joins lists (or, for old formulas, texts). */
export const concatFn: FunctionDef = {
  name: 'concat',
  minArgs: 1,
  maxArgs: Number.POSITIVE_INFINITY,
  check(c) {
    if (c.types[0].kind === 'string') {
      c.types.forEach((_, i) => c.expect(i, S.string));
      return T.string;
    }
    let result: Ty = T.list(T.empty);
    c.types.forEach((t, i) => {
      c.expect(i, S.list);
      const merged = unify(result, t);
      if (merged === null) return c.fail(i, `Cannot combine ${typeName(result)} with ${typeName(t)} in "${c.display}"`);
      result = merged;
    });
    return result;
  },
  evaluate(c) {
    if (c.type.kind === 'string') {
      let out = '';
      for (let i = 0; i < c.count; i++) {
        const v = c.arg(i);
        out += typeof v === 'string' ? v : '';
      }
      return out;
    }
    const out: FormulaValue[] = [];
    for (let i = 0; i < c.count; i++) out.push(...asList(c.arg(i)));
    return clampList(out);
  },
};

const SORTABLE = new Set<Ty['kind']>(['number', 'string', 'boolean', 'date', 'empty']);

/** sort(list) or sort(list, key): ascending, stable, empty keys last. */
export const sortFn: FunctionDef = {
  name: 'sort',
  minArgs: 1,
  maxArgs: 2,
  callbackArgs: [1],
  check(c) {
    c.expect(0, S.list);
    const keyType = c.types.length > 1 ? c.types[1] : elementType(c.types[0]);
    if (!SORTABLE.has(keyType.kind)) {
      c.fail(c.types.length > 1 ? 1 : 0, `"sort" can only order numbers, strings, booleans or dates, not ${typeName(keyType)}`);
    }
    return c.types[0].kind === 'empty' ? T.list(T.empty) : c.types[0];
  },
  evaluate(c) {
    const items = asList(c.arg(0));
    const keyed = items.map((item, i) => {
      c.rt.step();
      return { item, key: c.count > 1 ? c.argWith(1, item, i) : item };
    });
    keyed.sort((a, b) => {
      if (a.key === null || b.key === null) return a.key === null ? (b.key === null ? 0 : 1) : -1;
      return compareValues(a.key, b.key) ?? 0;
    });
    return keyed.map((k) => k.item);
  },
};

export const reverseFn = simple(
  'reverse',
  [S.list],
  (c) => c.types[0],
  ([list]) => [...asList(list)].reverse(),
);

/** Identity for de-duplication: dates by instant, people and pages by id. */
function valueKey(v: FormulaValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(valueKey).join(',')}]`;
  if (isPerson(v) || isPage(v)) return `${v.kind}:${v.id}`;
  if (typeof v === 'object') {
    const r = dateRangeOf(v);
    return r === null ? 'date:invalid' : `date:${r.start.ms}:${r.end?.ms ?? ''}`;
  }
  return `${typeof v}:${String(v)}`;
}

export const uniqueFn = simple(
  'unique',
  [S.list],
  (c) => c.types[0],
  ([list]) => {
    const seen = new Set<string>();
    const out: FormulaValue[] = [];
    for (const item of asList(list)) {
      const key = valueKey(item);
      if (!seen.has(key)) {
        seen.add(key);
        out.push(item);
      }
    }
    return out;
  },
);

/** includes(list, value) tests membership; on text it tests for a substring. */
export const includesFn: FunctionDef = {
  name: 'includes',
  minArgs: 2,
  maxArgs: 2,
  check(c) {
    c.expect(0, S.stringOrList);
    if (c.types[0].kind === 'string') {
      c.expect(1, S.string);
    } else if (unify(elementType(c.types[0]), c.types[1]) === null) {
      c.fail(1, `Cannot look for ${typeName(c.types[1])} in ${typeName(c.types[0])} with "${c.display}"`);
    }
    return T.boolean;
  },
  evaluate(c) {
    const haystack = c.arg(0);
    const needle = c.arg(1);
    if (typeof haystack === 'string') return typeof needle === 'string' && haystack.includes(needle);
    return asList(haystack).some((item) => valuesEqual(item, needle));
  },
};

function requireBooleanCallback(c: CheckCall): void {
  c.expect(1, S.boolean);
}

function callbackFn(
  name: string,
  result: (c: CheckCall) => Ty,
  run: (items: FormulaValue[], test: (i: number) => FormulaValue) => FormulaValue,
  booleanCallback = true,
): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    callbackArgs: [1],
    check(c) {
      c.expect(0, S.list);
      if (booleanCallback) requireBooleanCallback(c);
      return result(c);
    },
    evaluate(c) {
      const items = asList(c.arg(0));
      return run(items, (i) => {
        c.rt.step();
        return c.argWith(1, items[i], i);
      });
    },
  };
}

export const findFn = callbackFn(
  'find',
  (c) => elementType(c.types[0]),
  (items, test) => {
    for (let i = 0; i < items.length; i++) if (test(i) === true) return items[i];
    return null;
  },
);

export const findIndexFn = callbackFn(
  'findIndex',
  () => T.number,
  (items, test) => {
    for (let i = 0; i < items.length; i++) if (test(i) === true) return i;
    return -1;
  },
);

export const filterFn = callbackFn(
  'filter',
  (c) => (c.types[0].kind === 'empty' ? T.list(T.empty) : c.types[0]),
  (items, test) => items.filter((_, i) => test(i) === true),
);

export const someFn = callbackFn(
  'some',
  () => T.boolean,
  (items, test) => items.some((_, i) => test(i) === true),
);

export const everyFn = callbackFn(
  'every',
  () => T.boolean,
  (items, test) => items.every((_, i) => test(i) === true),
);

export const mapFn = callbackFn(
  'map',
  (c) => T.list(c.types[1]),
  (items, transform) => items.map((_, i) => transform(i)),
  false,
);

/** Flattens one level: a list of lists becomes a list of their items. */
export const flatFn = simple(
  'flat',
  [S.list],
  (c) => {
    const of = elementType(c.types[0]);
    return of.kind === 'list' ? of : T.list(of);
  },
  ([list]) => clampList(asList(list).flatMap((item) => (Array.isArray(item) ? item : [item]))),
);
