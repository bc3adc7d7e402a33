import { S, T } from '../typeSystem.js';
import { asNumber, clampText, formatValue, num } from '../values.js';
import type { FormulaValue } from '../types.js';
import { simple, type FunctionDef } from './functionDef.js';
import { toNumberValue } from './conversion.js';

/** Number addition, or text concatenation when either side is text (the other side is formatted). */
export const addFn: FunctionDef = {
  name: 'add',
  minArgs: 2,
  maxArgs: 2,
  check(c) {
    if (c.types[0].kind === 'string' || c.types[1].kind === 'string') return T.string;
    c.expect(0, S.numberOrString);
    c.expect(1, S.number);
    return T.number;
  },
  evaluate(c) {
    const a = c.arg(0);
    const b = c.arg(1);
    if (c.type.kind === 'string') return clampText(formatValue(a) + formatValue(b));
    return arithmetic(a, b, (x, y) => x + y);
  },
};

// Arithmetic with an empty operand is empty, so a blank Price does not show as 0.
function arithmetic(a: FormulaValue, b: FormulaValue, op: (x: number, y: number) => number): number | null {
  const x = asNumber(a);
  const y = asNumber(b);
  return x === null || y === null ? null : num(op(x, y));
}

function binary(name: string, op: (x: number, y: number) => number): FunctionDef {
  return simple(name, [S.number, S.number], T.number, ([a, b]) => arithmetic(a, b, op));
}

export const subtractFn = binary('subtract', (x, y) => x - y);
export const multiplyFn = binary('multiply', (x, y) => x * y);
// Division and modulo by zero give Infinity/NaN, which num() turns into empty.
export const divideFn = binary('divide', (x, y) => x / y);
export const modFn = binary('mod', (x, y) => x % y);
export const powFn = binary('pow', (x, y) => x ** y);

export const unaryMinusFn = simple('unaryMinus', [S.number], T.number, ([a]) => {
  const x = asNumber(a);
  return x === null ? null : num(-x);
});

export const unaryPlusFn = simple('unaryPlus', [S.convertible], T.number, ([a]) => toNumberValue(a));

function unaryMath(name: string, op: (x: number) => number): FunctionDef {
  return simple(name, [S.number], T.number, ([a]) => {
    const x = asNumber(a);
    return x === null ? null : num(op(x));
  });
}

export const absFn = unaryMath('abs', Math.abs);
// Math.round rounds halves toward +Infinity, matching Notion: round(-4.5) == -4.
export const roundFn = unaryMath('round', Math.round);
export const ceilFn = unaryMath('ceil', Math.ceil);
export const floorFn = unaryMath('floor', Math.floor);
export const sqrtFn = unaryMath('sqrt', Math.sqrt);
export const cbrtFn = unaryMath('cbrt', Math.cbrt);
export const expFn = unaryMath('exp', Math.exp);
export const lnFn = unaryMath('ln', Math.log);
export const log10Fn = unaryMath('log10', Math.log10);
export const log2Fn = unaryMath('log2', Math.log2);
export const signFn = unaryMath('sign', Math.sign);

/** Numbers from arguments that are numbers or lists of numbers; empties are skipped. */
function collectNumbers(args: FormulaValue[]): number[] {
  const out: number[] = [];
  for (const a of args) {
    for (const v of Array.isArray(a) ? a : [a]) {
      const n = asNumber(v);
      if (n !== null) out.push(n);
    }
  }
  return out;
}

function aggregate(name: string, reduce: (xs: number[]) => number | null): FunctionDef {
  return simple(name, [], T.number, (args) => reduce(collectNumbers(args)), {
    rest: S.numberOrListOfNumbers,
    minArgs: 1,
  });
}

export const sumFn = aggregate('sum', (xs) => num(xs.reduce((s, x) => s + x, 0)));
export const minFn = aggregate('min', (xs) => (xs.length === 0 ? null : xs.reduce((m, x) => (x < m ? x : m))));
export const maxFn = aggregate('max', (xs) => (xs.length === 0 ? null : xs.reduce((m, x) => (x > m ? x : m))));
export const meanFn = aggregate('mean', (xs) => (xs.length === 0 ? null : num(xs.reduce((s, x) => s + x, 0) / xs.length)));
export const medianFn = aggregate('median', (xs) => {
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : num((sorted[mid - 1] + sorted[mid]) / 2);
});
