import { invalidField } from '../../../errors/validationFailure.js';
import { isRecord } from '../../rollups/rollupAtoms.js';
import { rollupResultKind } from '../../rollups/rollupFunctions.js';
import { configOf, type RelationConfig, type RollupConfig } from '../../properties/schemaTypes.js';
import { not, relatedIn } from '../../../storage/query/sqlPieces.js';
import { dateConditions } from './date.js';
import { numberConditions } from './number.js';
import type { FilterConditions, LeafCondition, ParsedCondition } from './operators.js';

const KEYS = ['any', 'every', 'none', 'number', 'date'];

export interface ElementCondition {
  relationId: string;
  dataSourceId: string;
  leaf: LeafCondition;
}

/**
 * rollup: `number` and `date` read the rollup's stored result; `any`, `every` and `none` read the
 * elements of an array rollup, which are the rolled-up property's values on the related pages not
 * in the trash (docs/decisions.md), so they compile to a condition on those pages through the
 * relation: any = some related page matches, none = no related page matches, every = no related
 * page fails (true of no related page at all).
 */
export const rollupConditions: FilterConditions = {
  keys: [],
  parse(condition, path, ctx) {
    const property = ctx.property!;
    const config = configOf<RollupConfig>(property);
    const record = isRecord(condition) ? condition : null;
    const keys = record ? Object.keys(record) : [];
    if (!record || keys.length !== 1) throw invalidField(path, `should have exactly one of the keys ${KEYS.join(', ')}`, condition);
    const [key] = keys;
    if (!KEYS.includes(key)) throw invalidField([...path, key], `should be not present: the keys here are ${KEYS.join(', ')}`, record[key]);
    const result = rollupResultKind(config.function);
    if (key === 'number' || key === 'date') {
      if (result !== key)
        throw invalidField([...path, key], `should be not present: the rollup's result is ${result === 'array' ? 'an array' : `a ${result}`}`, record[key]);
      const family = key === 'number' ? numberConditions : dateConditions;
      return { op: key, value: family.parse(record[key], [...path, key], ctx) };
    }
    if (result !== 'array')
      throw invalidField([...path, key], `should be not present: the rollup's result is a ${result}, so its condition is keyed \`${result}\``, record[key]);
    const relation = ctx.property && Object.values(ctx.schemaOfSelf()).find((p) => p.id === config.relation_property_id);
    const dataSourceId = relation?.type === 'relation' ? configOf<RelationConfig>(relation).data_source_id : undefined;
    const rolledUp = dataSourceId ? ctx.schemaOf(dataSourceId)?.[config.rollup_property_id] : undefined;
    if (!relation || !dataSourceId || !rolledUp) throw invalidField(path, 'should name a rollup whose relation and rolled-up property exist', condition);
    const inner = record[key];
    const innerKeys = isRecord(inner) ? Object.keys(inner) : [];
    if (innerKeys.length !== 1) throw invalidField([...path, key], 'should have exactly one key: the condition of the rolled-up property', inner);
    const leaf = ctx.parseLeaf(rolledUp, dataSourceId, innerKeys[0], (inner as Record<string, unknown>)[innerKeys[0]], [...path, key]);
    const element: ElementCondition = { relationId: relation.id, dataSourceId, leaf };
    return { op: key, value: element };
  },
  // Number and date results; an array result fills neither and leaves the order to the next key.
  sortKeys: (target, env) => [...numberConditions.sortKeys(target, env), ...dateConditions.sortKeys(target, env)],
  compile({ op, value }, target, env) {
    if (op === 'number' || op === 'date') {
      return (op === 'number' ? numberConditions : dateConditions).compile(value as ParsedCondition, target, env);
    }
    const { relationId, dataSourceId, leaf } = value as ElementCondition;
    const holds = (negated: boolean) =>
      relatedIn(env, target, relationId, (r) => {
        const cond = leaf.family.compile(leaf.condition, { page: r, dataSourceId, property: leaf.property, row: leaf.row }, env);
        return negated ? not(cond) : cond;
      });
    if (op === 'any') return holds(false);
    if (op === 'none') return not(holds(false));
    return not(holds(true));
  },
};
