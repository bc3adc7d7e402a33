import { isRecord } from '../../rollups/rollupAtoms.js';
import { invalidField } from '../../../errors/validationFailure.js';
import { checkboxConditions } from './checkbox.js';
import { dateConditions } from './date.js';
import { numberConditions } from './number.js';
import { textConditions } from './text.js';
import type { FilterConditions } from './operators.js';

const BY_RESULT: Record<string, FilterConditions> = {
  string: textConditions,
  number: numberConditions,
  checkbox: checkboxConditions,
  date: dateConditions,
};

/**
 * formula: `{string|number|checkbox|date: <condition>}`, the key being the formula's result type
 * as the schema types it; the result is stored in the columns of that type, so the condition
 * compiles as that type's would.
 */
export const formulaConditions: FilterConditions = {
  keys: [],
  parse(condition, path, ctx) {
    const result = ctx.formulaResultOf(ctx.property!);
    const keys = isRecord(condition) ? Object.keys(condition) : [];
    if (keys.length !== 1) throw invalidField(path, 'should have exactly one of the keys string, number, checkbox, date', condition);
    const [key] = keys;
    if (!(key in BY_RESULT))
      throw invalidField(
        [...path, key],
        'should be not present: the keys here are string, number, checkbox, date',
        (condition as Record<string, unknown>)[key],
      );
    if (key !== result)
      throw invalidField(
        [...path, key],
        `should be not present: the formula's result is ${result}, so its condition is keyed \`${result}\``,
        (condition as Record<string, unknown>)[key],
      );
    const inner = BY_RESULT[key].parse((condition as Record<string, unknown>)[key], [...path, key], ctx);
    return { op: key, value: inner };
  },
  // The stored result fills the columns of its type only, so the keys of every result type, in
  // turn, order it whatever its type.
  sortKeys: (target, env) => [numberConditions, dateConditions, checkboxConditions, textConditions].flatMap((family) => family.sortKeys(target, env)),
  compile({ op, value }, target, env) {
    return BY_RESULT[op].compile(value as ReturnType<FilterConditions['parse']>, target, env);
  },
};
