import type { SelectConfig } from '../schemaTypes.js';
import type { Json, PropertyTypeDefinition } from './definition.js';
import { oneOption, type OptionInput, optionValue, presentOption, resolveOption, selectConfig } from './options.js';
import { selectConditions } from '../../query/conditions/options.js';

/** select: one option; an unknown name creates the option, as the service does. */
export const select: PropertyTypeDefinition = {
  ...oneOption,
  filters: selectConditions,
  normalize: (ctx, property, member, path) => (member === null ? null : optionValue(resolveOption(ctx, property, member as OptionInput, path, true))),
  configure: (member, existing, path) => ({ ...selectConfig(member, existing as SelectConfig | undefined, path) }),
  presentConfig: (config) => ({ options: ((config.options ?? []) as Json[]).map(presentOption) }),
};
