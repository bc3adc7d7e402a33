import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ROLLUP_FUNCTIONS, computeRollup, rollupResultKind, type RollupFunction } from '../../src/domain/rollups/index.js';
import { rollupCases } from './rollupCases.js';

test('rollup case table covers every function', () => {
  assert.ok(rollupCases.length >= 40, `only ${rollupCases.length} cases`);
  const covered = new Set(rollupCases.map((c) => c.fn));
  assert.deepStrictEqual(
    ROLLUP_FUNCTIONS.filter((fn) => !covered.has(fn)),
    [],
  );
  const names = rollupCases.map((c) => c.name);
  assert.deepStrictEqual(
    names.filter((n, i) => names.indexOf(n) !== i),
    [],
  );
});

describe('rollup cases', () => {
  for (const c of rollupCases) {
    test(`${c.fn}: ${c.name}`, () => {
      const result = computeRollup(c.fn, c.inputs);
      assert.deepStrictEqual(result, c.expected);
      assert.equal(result.type, rollupResultKind(c.fn));
    });
  }
});

describe('rollupResultKind', () => {
  const expected: Record<RollupFunction, 'number' | 'date' | 'array'> = {
    count: 'number',
    count_values: 'number',
    empty: 'number',
    not_empty: 'number',
    unique: 'number',
    show_unique: 'array',
    percent_empty: 'number',
    percent_not_empty: 'number',
    sum: 'number',
    average: 'number',
    median: 'number',
    min: 'number',
    max: 'number',
    range: 'number',
    earliest_date: 'date',
    latest_date: 'date',
    date_range: 'date',
    checked: 'number',
    unchecked: 'number',
    percent_checked: 'number',
    percent_unchecked: 'number',
    count_per_group: 'array',
    percent_per_group: 'array',
    show_original: 'array',
  };
  for (const fn of ROLLUP_FUNCTIONS) {
    test(fn, () => {
      assert.equal(rollupResultKind(fn), expected[fn]);
      // The static kind must match what computeRollup produces even with no input.
      assert.equal(computeRollup(fn, []).type, expected[fn]);
    });
  }
});

test('malformed inputs are ignored rather than crashing', () => {
  const junk = [
    { type: 'number', number: 'seven' },
    { type: 'date', date: { start: 'yesterday' } },
    { type: 'multi_select', multi_select: 'a,b' },
    { type: 'title' },
    { type: 'rollup', rollup: { type: 'array', array: [null, 3, { type: 'number', number: 2 }] } },
    { type: 'mystery', mystery: { b: 1, a: 2 } },
  ];
  assert.deepStrictEqual(computeRollup('sum', junk), { type: 'number', number: 2, function: 'sum' });
  assert.deepStrictEqual(computeRollup('count', junk), { type: 'number', number: 6, function: 'count' });
  assert.deepStrictEqual(computeRollup('earliest_date', junk), { type: 'date', date: null, function: 'earliest_date' });
  assert.deepStrictEqual(computeRollup('not_empty', junk), { type: 'number', number: 2, function: 'not_empty' });
});
