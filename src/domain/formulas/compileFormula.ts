import { evaluate } from './evaluate.js';
import { FormulaError } from './formulaError.js';
import { MAX_EXPRESSION_LENGTH } from './limits.js';
import { parse } from './parse.js';
import { typecheck } from './typecheck.js';
import { publicType } from './typeSystem.js';
import type { CompileResult, FormulaPropertyInfo } from './types.js';

/**
 * Parses and type-checks a formula against the data source's properties.
 * Never throws: every problem, including pathological input, is reported as
 * `{ ok: false, position, message }`.
 */
export function compileFormula(
  expression: string,
  properties: FormulaPropertyInfo[],
  relatedSchemas?: (relationName: string) => FormulaPropertyInfo[] | undefined,
): CompileResult {
  if (typeof expression !== 'string') return { ok: false, position: 0, message: 'Formula must be a string' };
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    return { ok: false, position: MAX_EXPRESSION_LENGTH, message: `Formula is too long (more than ${MAX_EXPRESSION_LENGTH} characters)` };
  }
  try {
    const { tree, dependencies, references, readsClock } = typecheck(parse(expression), { properties, relatedSchemas });
    return {
      ok: true,
      formula: {
        expression,
        resultType: publicType(tree.type),
        dependencies,
        references,
        readsClock,
        evaluate: (ctx) => evaluate(tree, ctx),
      },
    };
  } catch (e) {
    if (e instanceof FormulaError) return { ok: false, position: e.position, message: e.message };
    // Stack exhaustion should be prevented by the depth limits; this is the last line of defence.
    if (e instanceof RangeError) return { ok: false, position: 0, message: 'Formula is too complex' };
    return { ok: false, position: 0, message: 'Formula could not be compiled' };
  }
}
