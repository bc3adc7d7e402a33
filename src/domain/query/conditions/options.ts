import { sql } from 'kysely';
import type { StatusConfig } from '../../properties/schemaTypes.js';
import { itemIn, not, TRUE, params, smallestItem, storedColumn, valueIn, type Cond } from '../../../storage/query/sqlPieces.js';
import { EMPTY_CHECKS, parseOperator, type FilterConditions } from './operators.js';

const SELECT_TABLE = { equals: 'names', does_not_equal: 'names', ...EMPTY_CHECKS } as const;

function oneOptionConditions(expand: (names: string[], config: unknown) => string[]): FilterConditions {
  return {
    keys: [],
    parse: (condition, path, ctx) => parseOperator(condition, path, SELECT_TABLE, ctx.now),
    // By the option's place in the schema, as the service's views sort options; a name no option
    // has any more sorts after them, then by name.
    sortKeys(target, env) {
      const options = ((target.property?.[target.property.type] as { options?: { name: string }[] } | undefined)?.options ?? []).map((o) => o.name);
      const name = storedColumn(env, target, 'text_value');
      const position =
        options.length === 0
          ? sql`NULL`
          : sql`CASE ${name} ${sql.join(
              options.map((o, i) => sql`WHEN ${o} THEN ${i}`),
              sql` `,
            )} ELSE ${options.length} END`;
      return [sql`CASE WHEN ${name} IS NULL THEN NULL ELSE ${position} END`, env.dialect.binaryText(name)];
    },
    compile({ op, value }, target, env) {
      // Read from property_values_text, which ends in the page (migration 018): PageSet.among.
      const notEmpty = valueIn(env, target, (v) => sql<boolean>`${v.col('text_value')} IS NOT NULL`, 'indexed', 'property_values_text');
      if (op === 'is_empty') return not(notEmpty);
      if (op === 'is_not_empty') return notEmpty;
      const names = op === 'equals' ? expand(value as string[], target.property?.[target.property.type]) : (value as string[]);
      const either: Cond = valueIn(env, target, (v) => sql<boolean>`${v.col('text_value')} IN (${params(names)})`, 'indexed', 'property_values_text');
      return op === 'equals' ? either : not(either);
    },
  };
}

/** select: the option's name, exactly; an array matches any of its names. */
export const selectConditions = oneOptionConditions((names) => names);

/**
 * status: as select, and `equals` also takes a group name, meaning every option of the group
 * (docs/decisions.md); a name that is an option's stays that option's.
 */
export const statusConditions = oneOptionConditions((names, config) => {
  const { options = [], groups = [] } = (config ?? {}) as Partial<StatusConfig>;
  const optionNames = new Set(options.map((o) => o.name));
  return names.flatMap((name) => {
    const group = optionNames.has(name) ? undefined : groups.find((g) => g.name === name);
    if (!group) return [name];
    return options.filter((o) => group.option_ids.includes(o.id)).map((o) => o.name);
  });
});

/** multi_select: the option names a page holds, one item each. */
export const multiSelectConditions: FilterConditions = {
  keys: [],
  parse: (condition, path, ctx) => parseOperator(condition, path, { contains: 'names', does_not_contain: 'names', ...EMPTY_CHECKS }, ctx.now),
  sortKeys: (target, env) => [smallestItem(env, target)],
  compile({ op, value }, target, env) {
    const notEmpty = itemIn(env, target, () => TRUE, 'indexed');
    if (op === 'is_empty') return not(notEmpty);
    if (op === 'is_not_empty') return notEmpty;
    const holdsAny = itemIn(env, target, (i) => sql<boolean>`${i.col('item')} IN (${params(value as string[])})`, 'indexed');
    return op === 'contains' ? holdsAny : not(holdsAny);
  },
};
