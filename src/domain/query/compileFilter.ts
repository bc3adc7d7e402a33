import { all, any, type Alias, type Cond } from '../../storage/query/sqlPieces.js';
import type { CompileEnv } from './compileEnv.js';
import type { FilterTree } from './parseFilter.js';

/**
 * A checked filter tree → one parameterised boolean expression over the page row `page` of the
 * data source (issue 12 item 6). Pure: the tree, the data source and the environment (dialect,
 * clock, caller, aliases) decide the SQL; each leaf is compiled by its property type's
 * conditions, found in the property-type registry when the tree was checked.
 */
export function compileFilter(tree: FilterTree, page: Alias, dataSourceId: string, env: CompileEnv): Cond {
  if (tree.kind !== 'leaf') {
    const items = tree.items.map((item) => compileFilter(item, page, dataSourceId, env));
    return tree.kind === 'and' ? all(items) : any(items);
  }
  return tree.family.compile(tree.condition, { page, dataSourceId, property: tree.property, row: tree.row }, env);
}
