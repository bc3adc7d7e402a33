import { compilePattern } from '../compilePattern.js';
import { MAX_GENERATED_TEXT } from '../limits.js';
import { S, T } from '../typeSystem.js';
import type { FormulaValue } from '../types.js';
import { asList, asNumber, clampList, clampText, formatValue } from '../values.js';
import { simple, type CheckCall, type FunctionDef } from './functionDef.js';

// Empty text behaves as "" in text functions.
function text(v: FormulaValue): string {
  return typeof v === 'string' ? v : formatValue(v);
}

function int(v: FormulaValue, fallback: number): number {
  const n = asNumber(v);
  return n === null ? fallback : Math.trunc(n);
}

/** Rejects bad literal patterns when the formula is saved rather than at every evaluation. */
function checkLiteralPattern(c: CheckCall, i: number): void {
  const literal = c.literal(i);
  if (typeof literal === 'string') {
    const compiled = compilePattern(literal);
    if (typeof compiled === 'string') c.fail(i, compiled);
  }
}

function withPattern<R>(pattern: FormulaValue, fallback: R, use: (re: RegExp) => R): R {
  const re = compilePattern(text(pattern));
  return typeof re === 'string' ? fallback : use(re);
}

export const lengthFn = simple('length', [S.stringOrList], T.number, ([v]) => (Array.isArray(v) ? v.length : text(v).length));

export const substringFn = simple(
  'substring',
  [S.string, S.number, S.number],
  T.string,
  ([s, start, end]) => {
    const str = text(s);
    return str.substring(int(start, 0), end === undefined ? str.length : int(end, str.length));
  },
  { optional: 1 },
);

/** contains() reads any value as text (lists as "a,b"), then looks for a substring. */
export const containsFn = simple('contains', [S.any, S.string], T.boolean, ([v, search]) => text(v).includes(text(search)));

export const testFn: FunctionDef = {
  ...simple('test', [S.textLike, S.string], T.boolean, ([v, pattern]) => withPattern(pattern, false, (re) => re.test(text(v)))),
  check(c) {
    c.expect(0, S.textLike);
    c.expect(1, S.string);
    checkLiteralPattern(c, 1);
    return T.boolean;
  },
};

export const matchFn: FunctionDef = {
  ...simple('match', [S.textLike, S.string], T.list(T.string), ([v, pattern]) =>
    withPattern<FormulaValue>(pattern, [], (re) => clampList(Array.from(text(v).matchAll(re), (m) => m[0]))),
  ),
  check(c) {
    c.expect(0, S.textLike);
    c.expect(1, S.string);
    checkLiteralPattern(c, 1);
    return T.list(T.string);
  },
};

function replacer(name: string, all: boolean): FunctionDef {
  const base = simple(name, [S.textLike, S.string, S.string], T.string, ([v, pattern, replacement]) => {
    const source = text(v);
    return withPattern(pattern, source, (re) => {
      // A non-global copy replaces only the first match; `$1` refers to groups as in JavaScript.
      const regex = all ? re : new RegExp(re.source, re.flags.replace('g', ''));
      return clampText(source.replace(regex, text(replacement)));
    });
  });
  return {
    ...base,
    check(c) {
      base.check(c);
      checkLiteralPattern(c, 1);
      return T.string;
    },
  };
}

export const replaceFn = replacer('replace', false);
export const replaceAllFn = replacer('replaceAll', true);

export const lowerFn = simple('lower', [S.string], T.string, ([v]) => text(v).toLowerCase());
export const upperFn = simple('upper', [S.string], T.string, ([v]) => text(v).toUpperCase());

export const repeatFn = simple('repeat', [S.string, S.number], T.string, ([v, times]) => {
  const unit = text(v);
  const count = Math.max(0, int(times, 0));
  if (unit.length === 0 || count === 0) return '';
  // Capped so a formula cannot allocate unbounded memory.
  const needed = Math.min(count, Math.ceil(MAX_GENERATED_TEXT / unit.length));
  return unit.repeat(needed).slice(0, Math.min(unit.length * count, MAX_GENERATED_TEXT));
});

function padder(name: string, atStart: boolean): FunctionDef {
  return simple(
    name,
    [S.string, S.number, S.string],
    T.string,
    ([v, length, fill]) => {
      const target = Math.min(Math.max(0, int(length, 0)), MAX_GENERATED_TEXT);
      const filler = fill === undefined ? ' ' : text(fill);
      return atStart ? text(v).padStart(target, filler) : text(v).padEnd(target, filler);
    },
    { optional: 1 },
  );
}

export const padStartFn = padder('padStart', true);
export const padEndFn = padder('padEnd', false);

/** Formula results are plain text in the API, so a link is represented by its label. */
export const linkFn = simple('link', [S.string, S.string], T.string, ([label, url]) => text(label) || text(url));

// Styling only affects rich-text rendering in Notion's UI; the API's formula
// string is plain text, so both are the identity on the text.
export const styleFn = simple('style', [S.string], T.string, ([v]) => text(v), { rest: S.string, minArgs: 1 });
export const unstyleFn = simple('unstyle', [S.string], T.string, ([v]) => text(v), { rest: S.string, minArgs: 1 });

export const splitFn = simple('split', [S.string, S.string], T.list(T.string), ([v, separator]) => {
  const source = text(v);
  return source === '' ? [] : clampList(source.split(text(separator)));
});

export const joinFn = simple('join', [S.list, S.string], T.string, ([list, separator]) => clampText(asList(list).map(formatValue).join(text(separator))));
