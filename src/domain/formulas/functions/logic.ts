import { S, T, typeName, unify, type Ty } from '../typeSystem.js';
import { compareValues, isFalsyEmpty, valuesEqual } from '../values.js';
import type { FunctionDef } from './functionDef.js';

export const ifFn: FunctionDef = {
  name: 'if',
  minArgs: 3,
  maxArgs: 3,
  check(c) {
    c.expect(0, S.boolean);
    const t = unify(c.types[1], c.types[2]);
    if (t === null) {
      return c.fail(2, `Branches of "${c.display}" have incompatible types: ${typeName(c.types[1])} and ${typeName(c.types[2])}`);
    }
    return t;
  },
  evaluate: (c) => (c.arg(0) === true ? c.arg(1) : c.arg(2)),
};

/** ifs(cond1, value1, cond2, value2, ..., else?); without an else the result is empty. */
export const ifsFn: FunctionDef = {
  name: 'ifs',
  minArgs: 2,
  maxArgs: Number.POSITIVE_INFINITY,
  check(c) {
    let result: Ty = T.empty;
    c.types.forEach((t, i) => {
      const isCondition = i % 2 === 0 && i < c.types.length - 1;
      if (isCondition) {
        c.expect(i, S.boolean);
        return;
      }
      const merged = unify(result, t);
      if (merged === null) return c.fail(i, `Values of "ifs" have incompatible types: ${typeName(result)} and ${typeName(t)}`);
      result = merged;
    });
    return result;
  },
  evaluate(c) {
    let i = 0;
    for (; i + 1 < c.count; i += 2) {
      if (c.arg(i) === true) return c.arg(i + 1);
    }
    return i < c.count ? c.arg(i) : null;
  },
};

/** empty(x) tests for emptiness (0, false, "" and [] count as empty); empty() is the empty value. */
export const emptyFn: FunctionDef = {
  name: 'empty',
  minArgs: 0,
  maxArgs: 1,
  check: (c) => (c.types.length === 0 ? T.empty : T.boolean),
  evaluate: (c) => (c.count === 0 ? null : isFalsyEmpty(c.arg(0))),
};

export const notFn: FunctionDef = {
  name: 'not',
  minArgs: 1,
  maxArgs: 1,
  check(c) {
    c.expect(0, S.boolean);
    return T.boolean;
  },
  evaluate: (c) => c.arg(0) !== true,
};

function logical(name: 'and' | 'or'): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    check(c) {
      c.expect(0, S.boolean);
      c.expect(1, S.boolean);
      return T.boolean;
    },
    // Short-circuits, so `not empty(x) and x.first() > 1` never evaluates the right side needlessly.
    evaluate(c) {
      const left = c.arg(0) === true;
      if (name === 'and') return left && c.arg(1) === true;
      return left || c.arg(1) === true;
    },
  };
}

export const andFn = logical('and');
export const orFn = logical('or');

function requireComparableTypes(c: Parameters<FunctionDef['check']>[0]): void {
  if (unify(c.types[0], c.types[1]) === null) {
    c.fail(1, `Cannot compare ${typeName(c.types[0])} with ${typeName(c.types[1])} using "${c.display}"`);
  }
}

function equality(name: string, negate: boolean): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    check(c) {
      requireComparableTypes(c);
      return T.boolean;
    },
    evaluate: (c) => valuesEqual(c.arg(0), c.arg(1)) !== negate,
  };
}

export const equalFn = equality('equal', false);
export const unequalFn = equality('unequal', true);

function ordering(name: string, accept: (order: number) => boolean): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    check(c) {
      c.expect(0, S.comparable);
      c.expect(1, S.comparable);
      requireComparableTypes(c);
      return T.boolean;
    },
    // Comparisons involving an empty value are false rather than an error.
    evaluate(c) {
      const order = compareValues(c.arg(0), c.arg(1));
      return order !== null && accept(order);
    },
  };
}

export const largerFn = ordering('larger', (o) => o > 0);
export const largerEqFn = ordering('largerEq', (o) => o >= 0);
export const smallerFn = ordering('smaller', (o) => o < 0);
export const smallerEqFn = ordering('smallerEq', (o) => o <= 0);
