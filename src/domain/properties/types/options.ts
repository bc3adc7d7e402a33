/** Rules shared by the option types (select, multi_select, status): their values and their configurations. */
import { invalidField, type FieldPath } from '../../../errors/validationFailure.js';
import { optionAtom } from '../../rollups/rollupAtoms.js';
import { DEFAULT_STATUS_OPTIONS } from '../propertyTypes.js';
import { SELECT_COLORS, STATUS_GROUPS, type SelectColor } from '../../../schemas/propertyTypes.js';
import { configOf, newOptionId, type Property, type SelectConfig, type SelectOption, type StatusConfig, type StatusOption } from '../schemaTypes.js';
import type { ValueContext } from '../valueContext.js';
import { AS_STORED, type Json, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';

export interface OptionInput {
  id?: string;
  name?: string;
  color?: SelectColor;
  description?: string | null;
  group?: string;
}

/** Option colours for created options, cycled like the service's palette. */
function nextColor(options: readonly SelectOption[]): SelectOption['color'] {
  return SELECT_COLORS[(options.length % (SELECT_COLORS.length - 1)) + 1];
}

function checkOptionName(name: string, path: FieldPath): void {
  // The service refuses commas in option names: they separate options in its CSV import.
  if (name.includes(',')) throw invalidField([...path, 'name'], 'should not contain a comma', name);
}

/**
 * Finds an option of a value by id or name. An unknown name creates the option (select and
 * multi_select only, as the service does); an unknown id, or an unknown status name, is refused.
 */
export function resolveOption(ctx: ValueContext, property: Property, input: OptionInput, path: FieldPath, create: boolean): SelectOption {
  const config = configOf<SelectConfig | StatusConfig>(property);
  if (input.id === undefined && input.name === undefined) throw invalidField([...path, 'name'], 'should be defined', undefined);
  if (input.id !== undefined) {
    const byId = config.options.find((o) => o.id === input.id);
    if (!byId) throw invalidField([...path, 'id'], `should be the id of an option of ${property.name}`, input.id);
    if (input.name !== undefined && input.name !== byId.name) throw invalidField([...path, 'name'], `should be ${JSON.stringify(byId.name)}`, input.name);
    return byId;
  }
  const name = input.name!;
  const byName = config.options.find((o) => o.name === name);
  if (byName) return byName;
  if (!create) throw invalidField([...path, 'name'], `should be the name of an option of ${property.name}`, name);
  checkOptionName(name, path);
  const option: SelectOption = {
    id: newOptionId(),
    name,
    color: input.color ?? nextColor(config.options),
    description: input.description ?? null,
  };
  (config.options as SelectOption[]).push(option);
  ctx.schemaChanged = true;
  return option;
}

/** An option as a value holds it. */
export const optionValue = (o: SelectOption) => ({ id: o.id, name: o.name, color: o.color });

/**
 * The options of a select, multi_select or status after a request: the listed options, in the
 * listed order (an option is matched by id, else by name; a new name creates it). Options left
 * out are removed, as the service does when options are sent.
 */
function mergeOptions<T extends SelectOption>(
  existing: readonly T[],
  inputs: readonly OptionInput[],
  path: FieldPath,
  make: (input: OptionInput, old: T | undefined) => T,
): T[] {
  const out: T[] = [];
  const names = new Set<string>();
  inputs.forEach((input, i) => {
    const at = [...path, 'options', i];
    let old: T | undefined;
    if (input.id !== undefined) {
      old = existing.find((o) => o.id === input.id);
      if (!old) throw invalidField([...at, 'id'], 'should be the id of an existing option', input.id);
    } else if (input.name !== undefined) {
      old = existing.find((o) => o.name === input.name);
    } else {
      throw invalidField([...at, 'name'], 'should be defined', undefined);
    }
    const option = make(input, old);
    if (option.name.includes(',')) throw invalidField([...at, 'name'], 'should not contain a comma', option.name);
    const key = option.name.toLowerCase();
    if (names.has(key)) throw invalidField([...at, 'name'], 'should be unique among the options', option.name);
    names.add(key);
    if (!out.some((o) => o.id === option.id)) out.push(option);
  });
  return out;
}

export function selectConfig(member: { options?: OptionInput[] }, existing: SelectConfig | undefined, path: FieldPath): SelectConfig {
  if (!member.options) return { options: existing?.options ?? [] };
  const options = mergeOptions(existing?.options ?? [], member.options, path, (input, old) => ({
    id: old?.id ?? newOptionId(),
    name: input.name ?? old!.name,
    color: input.color ?? old?.color ?? 'default',
    description: input.description !== undefined ? input.description : (old?.description ?? null),
  }));
  return { options };
}

export function statusConfig(member: { options?: OptionInput[] }, existing: StatusConfig | undefined, path: FieldPath): StatusConfig {
  const inputs: OptionInput[] = member.options ?? (existing ? existing.options : DEFAULT_STATUS_OPTIONS.map((o) => ({ ...o })));
  const options: StatusOption[] = mergeOptions(existing?.options ?? [], inputs, path, (input, old) => ({
    id: old?.id ?? newOptionId(),
    name: input.name ?? old!.name,
    color: input.color ?? old?.color ?? 'default',
    description: input.description !== undefined ? input.description : (old?.description ?? null),
    // An option keeps its group unless the request names one; a new one starts in To-do.
    group: input.group ?? old?.group ?? 'To-do',
  }));
  const groups = STATUS_GROUPS.map((g) => ({
    id: existing?.groups.find((eg) => eg.name === g.name)?.id ?? newOptionId(),
    name: g.name,
    color: g.color,
    option_ids: options.filter((o) => o.group === g.name).map((o) => o.id),
  }));
  return { options, groups };
}

/** An option as a data source shows it. */
export const presentOption = (o: Json) => ({ id: o.id, name: o.name, color: o.color, description: o.description ?? null });

/** The rules select and status share: one option or none, read by its name. */
export const oneOption: Pick<
  PropertyTypeDefinition,
  'multiValued' | 'optionValues' | 'columns' | 'emptyValue' | 'formulaType' | 'toFormulaValue' | 'atoms' | 'page'
> = {
  multiValued: false,
  optionValues: true,
  columns(member, into) {
    into.text_value = (member as { name: string } | null)?.name ?? null;
  },
  emptyValue: () => null,
  formulaType: () => T.string,
  toFormulaValue: (member) => (member as { name: string } | null)?.name ?? null,
  atoms: (member) => optionAtom(member),
  page: AS_STORED,
};
