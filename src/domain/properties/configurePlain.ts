import { invalidField, type FieldPath } from '../../schemas/properties.js';
import { DEFAULT_STATUS_OPTIONS, STATUS_GROUPS, type PropertyType, type SelectColor } from './propertyTypes.js';
import { newOptionId, type SelectConfig, type SelectOption, type StatusConfig, type StatusOption, type UniqueIdConfig } from './schemaTypes.js';

interface OptionInput {
  id?: string;
  name?: string;
  color?: SelectColor;
  description?: string | null;
  group?: string;
}

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

function selectConfig(member: { options?: OptionInput[] }, existing: SelectConfig | undefined, path: FieldPath): SelectConfig {
  if (!member.options) return { options: existing?.options ?? [] };
  const options = mergeOptions(existing?.options ?? [], member.options, path, (input, old) => ({
    id: old?.id ?? newOptionId(),
    name: input.name ?? old!.name,
    color: input.color ?? old?.color ?? 'default',
    description: input.description !== undefined ? input.description : (old?.description ?? null),
  }));
  return { options };
}

function statusConfig(member: { options?: OptionInput[] }, existing: StatusConfig | undefined, path: FieldPath): StatusConfig {
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

/**
 * The stored configuration of a property type that needs no other data source: everything but
 * relation and rollup. `existing` is the current configuration when the type is unchanged.
 */
export function configurePlain(type: PropertyType, member: Record<string, unknown>, existing: unknown, path: FieldPath): Record<string, unknown> {
  switch (type) {
    case 'number':
      return { format: (member.format as string | undefined) ?? (existing as { format?: string } | undefined)?.format ?? 'number' };
    case 'select':
    case 'multi_select':
      return { ...selectConfig(member, existing as SelectConfig | undefined, path) };
    case 'status':
      return { ...statusConfig(member, existing as StatusConfig | undefined, path) };
    case 'formula':
      return { expression: (member.expression as string | undefined) ?? (existing as { expression?: string } | undefined)?.expression ?? '' };
    case 'unique_id': {
      const old = existing as UniqueIdConfig | undefined;
      return { prefix: member.prefix !== undefined ? member.prefix : (old?.prefix ?? null), next_number: old?.next_number ?? 1 };
    }
    default:
      return {};
  }
}
