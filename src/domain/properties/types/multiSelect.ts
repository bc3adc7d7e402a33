import { each, optionAtom } from '../../rollups/rollupAtoms.js';
import type { SelectConfig } from '../schemaTypes.js';
import { AS_STORED, type Json, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';
import { optionValue, type OptionInput, presentOption, resolveOption, selectConfig } from './options.js';
import { multiSelectConditions } from '../../query/conditions/options.js';

/** multi_select: a list of options, each once; unknown names create options, as the service does. */
export const multiSelect: PropertyTypeDefinition = {
  normalize(ctx, property, member, path) {
    const seen = new Set<string>();
    const out: ReturnType<typeof optionValue>[] = [];
    (member as OptionInput[]).forEach((input, i) => {
      const option = resolveOption(ctx, property, input, [...path, i], true);
      if (!seen.has(option.id)) out.push(optionValue(option));
      seen.add(option.id);
    });
    return out;
  },
  multiValued: true,
  optionValues: true,
  columns(member, into) {
    into.items = (member as { name: string }[]).map((o) => o.name);
  },
  emptyValue: () => [],
  formulaType: () => T.list(T.string),
  toFormulaValue: (member) => (member as { name: string }[]).map((o) => o.name),
  atoms: (member) => each(member, optionAtom),
  configure: (member, existing, path) => ({ ...selectConfig(member, existing as SelectConfig | undefined, path) }),
  presentConfig: (config) => ({ options: ((config.options ?? []) as Json[]).map(presentOption) }),
  page: AS_STORED,
  filters: multiSelectConditions,
};
