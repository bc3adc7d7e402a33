import type { ElementCondition } from './conditions/rollup.js';
import { rollupConditions } from './conditions/rollup.js';
import type { FilterTree } from './parseFilter.js';
import type { SortSpec } from './parseSorts.js';

/**
 * The properties a filter and sorts read, by data source: the queried one's, and through rollup
 * any/every/none the rolled-up property of the related data source. The query stores their
 * time-dependent values as of now before its statement reads them.
 */
export function dataSourcesRead(filter: FilterTree | null, sorts: readonly SortSpec[], dataSourceId: string): Map<string, string[]> {
  const read = new Map<string, string[]>();
  const add = (id: string, propertyId: string) => read.set(id, [...(read.get(id) ?? []), propertyId]);
  const walk = (tree: FilterTree) => {
    if (tree.kind !== 'leaf') return tree.items.forEach(walk);
    if (!tree.property) return;
    add(dataSourceId, tree.property.id);
    const { op, value } = tree.condition;
    if (tree.family === rollupConditions && (op === 'any' || op === 'every' || op === 'none')) {
      const element = value as ElementCondition;
      if (element.leaf.property) add(element.dataSourceId, element.leaf.property.id);
    }
  };
  if (filter) walk(filter);
  for (const sort of sorts) if (sort.property) add(dataSourceId, sort.property.id);
  return read;
}
