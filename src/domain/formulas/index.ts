import { FUNCTIONS } from './functions/registry.js';

export type {
  ApiFormulaValue,
  CompileResult,
  CompiledFormula,
  DateValue,
  FormulaContext,
  FormulaPropertyInfo,
  FormulaType,
  FormulaValue,
  PageValue,
  PersonValue,
  PropertyReference,
} from './types.js';
export { compileFormula } from './compileFormula.js';
export { toApiFormulaValue } from './toApiFormulaValue.js';
export { DATE_UNITS } from './dateMath.js';
export { MAX_EXPRESSION_LENGTH } from './limits.js';

/** Every name callable in a formula, e.g. for editor hints or docs. */
export const FORMULA_FUNCTION_NAMES: readonly string[] = Object.freeze([...FUNCTIONS.keys(), 'prop', 'let', 'lets'].sort());
