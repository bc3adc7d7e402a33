import type { Db } from '../../storage/db.js';
import { listPageIdsOf } from '../../storage/repositories/objects.js';
import { computePage, loadComputeEnv } from './computeValues.js';
import { isTimeDependent } from './formulaSchema.js';
import type { Schema } from './schemaTypes.js';
import { storeValue } from './storeValue.js';

/** Pages computed per batch: bounds what one batch loads (the pages, their related pages, users). */
const BATCH = 500;

/**
 * Stores, for every page of a data source, the values of its time-dependent formulas and rollups
 * (formulaSchema's marks) as of `now`, so SQL conditions and sorts read them as a reader would see
 * them at this moment (issue 12 item 6). A query calls it, in its transaction, only when its
 * filter or sorts name such a property: it costs one computation per page of the data source,
 * which is why the marks exist. Values equal to the stored ones are not written again.
 */
export async function refreshTimeDependent(db: Db, workspaceId: string, dataSourceId: string, schema: Schema, now: Date): Promise<void> {
  const marked = new Set(
    Object.values(schema)
      .filter(isTimeDependent)
      .map((p) => p.id),
  );
  if (marked.size === 0) return;
  const ids = await listPageIdsOf(db, dataSourceId);
  for (let at = 0; at < ids.length; at += BATCH) {
    const batch = ids.slice(at, at + BATCH);
    const env = await loadComputeEnv(db, workspaceId, batch, now);
    for (const id of batch) {
      for (const [propertyId, value] of computePage(env, id, marked)) await storeValue(db, id, dataSourceId, propertyId, value);
    }
  }
}
