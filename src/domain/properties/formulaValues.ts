import type { FormulaValue } from '../formulas/index.js';
import { definitionOf } from './registry.js';
import type { StoredValue } from './storedValue.js';
import type { FormulaWorld } from './types/definition.js';

/** A stored property value as the formula language sees it (`prop("…")`). */
export function toFormulaValue(value: StoredValue | undefined, world: FormulaWorld): FormulaValue {
  if (!value) return null;
  return definitionOf(value.type)?.toFormulaValue(value[value.type], world, toFormulaValue) ?? null;
}
