import { invalidField } from '../../../errors/validationFailure.js';
import { normalizeId } from '../../../ids/ids.js';
import type { PersonValue } from '../../formulas/index.js';
import { each, userAtom } from '../../rollups/rollupAtoms.js';
import { noConfig, type FormulaWorld, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';
import { peopleConditions } from '../../query/conditions/lists.js';

/** A user as the formula language reads it. */
export function formulaPerson(world: FormulaWorld, id: string): PersonValue {
  const user = world.users.get(id);
  return { kind: 'person', id, name: user?.name ?? null, email: user?.email ?? null };
}

/** people: users of the workspace, each once; a list of references that pages cut at 25. */
export const people: PropertyTypeDefinition = {
  async normalize(ctx, _property, member, path) {
    const given = member as { id: string }[];
    const ids = given.map((p) => normalizeId(p.id)!);
    const known = await ctx.lookups.workspaceUserIds(ids);
    const unique: string[] = [];
    ids.forEach((id, i) => {
      if (!known.has(id)) throw invalidField([...path, i, 'id'], 'should be the id of a user of this workspace', given[i].id);
      if (!unique.includes(id)) unique.push(id);
    });
    return unique.map((id) => ({ object: 'user', id }));
  },
  multiValued: true,
  optionValues: false,
  columns(member, into) {
    into.items = (member as { id: string }[]).map((o) => o.id);
  },
  emptyValue: () => [],
  formulaType: () => T.list(T.person),
  toFormulaValue: (member, world) => (member as { id: string }[]).map((u) => formulaPerson(world, u.id)),
  atoms: (member) => each(member, userAtom),
  configure: noConfig,
  presentConfig: noConfig,
  page: { fromRow: null, referenceList: true, hasMore: false },
  filters: peopleConditions,
};
