import { definitionOf } from '../properties/registry.js';
import { stableKey, type Atom, type RollupInput } from './rollupAtoms.js';

/**
 * The atoms of one property value, by its type's rule (properties/types/*.ts `atoms`); `depth`
 * counts rollups of rollups. A type this server does not know counts as one atom when not empty.
 */
export function atomsOf(input: RollupInput, depth = 0): Atom[] {
  const payload = input[input.type];
  const definition = definitionOf(input.type);
  if (definition) return definition.atoms(payload, depth, atomsOf);
  return payload === null || payload === undefined || payload === '' || (Array.isArray(payload) && payload.length === 0)
    ? []
    : [{ kind: 'other', key: `${input.type}:${stableKey(payload)}`, label: typeof payload === 'string' ? payload : stableKey(payload) }];
}
