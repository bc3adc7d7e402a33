import { configOf, type StatusConfig } from '../schemaTypes.js';
import type { Json, PropertyTypeDefinition } from './definition.js';
import { oneOption, type OptionInput, optionValue, presentOption, resolveOption, statusConfig } from './options.js';
import { statusConditions } from '../../query/conditions/options.js';

/** status: one option of three fixed groups; a value must name an existing option. */
export const status: PropertyTypeDefinition = {
  ...oneOption,
  filters: statusConditions,
  normalize: (ctx, property, member, path) => (member === null ? null : optionValue(resolveOption(ctx, property, member as OptionInput, path, false))),
  // A new row starts at the first option of the To-do group, as in the service.
  emptyValue(property) {
    const first = configOf<StatusConfig>(property).options.find((o) => o.group === 'To-do');
    return first ? optionValue(first) : null;
  },
  configure: (member, existing, path) => ({ ...statusConfig(member, existing as StatusConfig | undefined, path) }),
  presentConfig: (config) => ({
    options: ((config.options ?? []) as Json[]).map((o) => ({ ...presentOption(o), group: o.group })),
    groups: ((config.groups ?? []) as Json[]).map((g) => ({ id: g.id, name: g.name, color: g.color, option_ids: g.option_ids })),
  }),
};
