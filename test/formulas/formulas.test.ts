import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileFormula, toApiFormulaValue } from '../../src/domain/formulas/index.js';
import { formulaCases, type FormulaCase } from './formulaCases.js';
import { PROPERTIES, contextFor, relatedSchemas } from './fixtures.js';

function label(c: FormulaCase): string {
  return c.name === undefined ? c.expression : `${c.name}: ${c.expression}`;
}

test('case table is large and labels are unique', () => {
  assert.ok(formulaCases.length >= 150, `only ${formulaCases.length} cases`);
  const labels = formulaCases.map(label);
  const duplicates = labels.filter((l, i) => labels.indexOf(l) !== i);
  assert.deepEqual(duplicates, []);
});

describe('formula cases', () => {
  for (const c of formulaCases) {
    test(label(c), () => {
      const result = compileFormula(c.expression, PROPERTIES, relatedSchemas);
      if (c.error !== undefined) {
        assert.equal(result.ok, false, 'expected a compile error');
        if (result.ok) return;
        assert.match(result.message, c.error);
        if (c.position !== undefined) assert.equal(result.position, c.position, `position of: ${result.message}`);
        return;
      }
      assert.ok(result.ok, result.ok ? '' : `compile failed at ${result.position}: ${result.message}`);
      const value = result.formula.evaluate(contextFor(c.props));
      assert.deepStrictEqual(value, c.expected);
      if (c.type !== undefined) assert.deepStrictEqual(result.formula.resultType, c.type);
      if (c.api !== undefined) assert.deepStrictEqual(toApiFormulaValue(value, result.formula.resultType), c.api);
    });
  }
});
