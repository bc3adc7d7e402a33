import type { Db } from '../../storage/db.js';
import { parseContent, type DataSourceContent } from '../contentShapes.js';
import { computePage, loadComputeEnv } from './computeValues.js';
import { referencedNames } from './formulaSchema.js';
import { storeValue } from './storeValue.js';
import { configOf, type RollupConfig, type Schema } from './schemaTypes.js';
import { findHoldersOfSubtree, findItemHolders } from '../../storage/repositories/propertyValues.js';
import { findObjects } from '../../storage/repositories/objects.js';

/** Relation chains longer than this are not followed further in one write (rollups of rollups of …). */
const MAX_HOPS = 6;

/** Pages whose inputs changed, each with the properties that changed (null: any of them). */
export type ChangedPages = Map<string, Set<string> | null>;

export function allChanged(pageIds: Iterable<string>): ChangedPages {
  return new Map([...pageIds].map((id) => [id, null]));
}

function merge(into: ChangedPages, pageId: string, props: Set<string> | null): void {
  const known = into.get(pageId);
  if (known === null || props === null) into.set(pageId, null);
  else into.set(pageId, new Set([...(known ?? []), ...props]));
}

/**
 * Does a page of `schema`, relating to a changed page through `relationId`, read what changed?
 * A rollup over that relation reads one property of the related pages; a formula naming the
 * relation may read any of them.
 */
function dependsOn(schema: Schema, relationId: string, changed: Set<string> | null): boolean {
  const relation = schema[relationId];
  if (!relation || relation.type !== 'relation') return false;
  return Object.values(schema).some((p) => {
    if (p.type === 'rollup') {
      const config = configOf<RollupConfig>(p);
      return config.relation_property_id === relationId && (changed === null || changed.has(config.rollup_property_id));
    }
    if (p.type === 'formula') return referencedNames(configOf<{ expression: string }>(p).expression).includes(relation.name);
    return false;
  });
}

/**
 * Recomputes the computed values of pages whose inputs changed, then of the pages related to
 * them that read what changed, hop by hop (issue 3 item 6: a computed value is right after any
 * change of its inputs, including a change on a related page). Dependents are found through the
 * items index: a page relating to P holds P's id as an item of its relation property. A hop
 * continues only from pages whose values changed, so cycles of relations settle.
 */
export async function refreshComputed(
  db: Db,
  workspaceId: string,
  seeds: ChangedPages | readonly string[],
  now: Date,
  overrides?: ReadonlyMap<string, Schema>,
): Promise<void> {
  let changed: ChangedPages = Array.isArray(seeds) ? allChanged(seeds) : new Map(seeds as ChangedPages);
  let current = [...changed.keys()];
  const schemas = new Map<string, Schema>(overrides);
  for (let hop = 0; hop < MAX_HOPS && current.length > 0; hop++) {
    const env = await loadComputeEnv(db, workspaceId, current, now, overrides);
    if (hop > 0) changed = new Map();
    for (const pageId of current) {
      const values = computePage(env, pageId);
      const page = env.pages.get(pageId);
      if (!page || values.size === 0) continue;
      for (const [propertyId, value] of values) await storeValue(db, pageId, page.row.parent_id, propertyId, value);
      merge(changed, pageId, new Set(values.keys()));
    }
    for (const [pageId, props] of changed) if (props !== null && props.size === 0) changed.delete(pageId);
    if (changed.size === 0) break;
    const holders = await findItemHolders(db, [...changed.keys()]);
    const missing = [...new Set(holders.map((h) => h.data_source_id!))].filter((id) => !schemas.has(id));
    for (const row of await findObjects(db, missing)) schemas.set(row.id, parseContent<DataSourceContent>(row.content).properties as Schema);
    current = [
      ...new Set(holders.filter((h) => dependsOn(schemas.get(h.data_source_id!) ?? {}, h.property_id, changed.get(h.item) ?? null)).map((h) => h.page_id)),
    ];
  }
}

/**
 * After the trash state of `rootId` and its subtree changed: a page in the trash leaves the
 * relations of other pages and rollups ignore it, until it is restored (the service's trash rule).
 * Relation values keep it (so a restore brings it back), so the computed values of the pages
 * relating to a page of the subtree are recomputed, and from them onwards as after any change.
 */
export async function refreshAfterTrashChange(db: Db, rootId: string, now: Date): Promise<void> {
  const holders = await findHoldersOfSubtree(db, rootId);
  if (holders.length === 0) return;
  const schemas = new Map<string, Schema>();
  for (const row of await findObjects(db, [...new Set(holders.map((h) => h.data_source_id!))]))
    schemas.set(row.id, parseContent<DataSourceContent>(row.content).properties as Schema);
  // Each seed starts with nothing changed: only what its recomputation changes travels on.
  const seeds: ChangedPages = new Map();
  for (const h of holders) if (dependsOn(schemas.get(h.data_source_id!) ?? {}, h.property_id, null)) seeds.set(h.page_id, new Set());
  if (seeds.size > 0) await refreshComputed(db, holders[0].workspace_id, seeds, now);
}
