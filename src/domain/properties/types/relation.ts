import { invalidField } from '../../../errors/validationFailure.js';
import { normalizeId } from '../../../ids/ids.js';
import type { PageValue } from '../../formulas/index.js';
import { each, isRecord, type Atom } from '../../rollups/rollupAtoms.js';
import { configOf, type RelationConfig } from '../schemaTypes.js';
import { noConfig, type Json, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';
import { relationConditions } from '../../query/conditions/lists.js';

const pageAtom = (v: unknown): Atom[] => (isRecord(v) && typeof v.id === 'string' ? [{ kind: 'other', key: `page:${v.id}`, label: v.id }] : []);

/**
 * relation: pages of the related data source, each once; pages cut the list at 25 and say
 * whether they did (`has_more`). Its configuration names another data source, so the schema
 * editor sets it (`configure` has nothing to add).
 */
export const relation: PropertyTypeDefinition = {
  async normalize(ctx, property, member, path) {
    const config = configOf<RelationConfig>(property);
    const given = member as { id: string }[];
    const ids = given.map((p) => normalizeId(p.id)!);
    const found = await ctx.lookups.pagesIn(config.data_source_id, ids);
    const unique: string[] = [];
    ids.forEach((id, i) => {
      if (!found.has(id)) throw invalidField([...path, i, 'id'], `should be the id of a page of the related data source ${config.data_source_id}`, given[i].id);
      if (!unique.includes(id)) unique.push(id);
    });
    return unique.map((id) => ({ id }));
  },
  multiValued: true,
  optionValues: false,
  columns(member, into) {
    into.items = (member as { id: string }[]).map((o) => o.id);
  },
  emptyValue: () => [],
  formulaType: () => T.list(T.page),
  toFormulaValue: (member, world) => (member as { id: string }[]).map((r) => world.page(r.id)).filter((p): p is PageValue => p !== undefined),
  atoms: (member) => each(member, pageAtom),
  configure: noConfig,
  presentConfig(config) {
    const base = { database_id: config.database_id, data_source_id: config.data_source_id, type: config.type };
    if (config.type === 'dual_property') {
      const dual = (config.dual_property ?? {}) as Json;
      return { ...base, dual_property: { synced_property_id: dual.synced_property_id, synced_property_name: dual.synced_property_name } };
    }
    return { ...base, single_property: {} };
  },
  page: { fromRow: null, referenceList: true, hasMore: true },
  filters: relationConditions,
};
