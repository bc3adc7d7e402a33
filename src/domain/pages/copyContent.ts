import type { Db } from '../../storage/db.js';
import { insertObject, nextPosition } from '../../storage/repositories/objects.js';
import { listSubtree } from '../../storage/repositories/subtree.js';
import { loadValues } from '../../storage/repositories/propertyValues.js';
import { newId } from '../../ids/ids.js';
import { newObjectState } from '../newObjectState.js';
import type { StoredValue } from '../properties/storedValue.js';
import { storeValue } from '../properties/storeValue.js';

/**
 * Copies the content of page `fromId` (its blocks and sub-pages, not what is in the trash) to the
 * end of page `toId`'s content, as new objects by `actorId`; each copied object's stored JSON goes
 * through `rewrite` (template placeholders). Databases under the page are not copied, nor what is
 * under them: a database copy would be a new schema, which applying a template does not make.
 * Returns how many objects were written.
 */
export async function copyContent(
  db: Db,
  input: { fromId: string; toId: string; actorId: string; at: string; rewrite: (json: string) => string },
): Promise<number> {
  const rows = await listSubtree(db, input.fromId);
  const copies = new Map<string, string>([[input.fromId, input.toId]]);
  let position = await nextPosition(db, input.toId);
  const pages: [string, string][] = [];
  for (const row of rows) {
    const parentId = row.parent_id && copies.get(row.parent_id);
    if (!parentId || (row.object !== 'block' && row.object !== 'page')) continue;
    const id = newId();
    copies.set(row.id, id);
    await insertObject(db, {
      ...row,
      ...newObjectState(input.actorId, input.at),
      id,
      parent_id: parentId,
      position: row.parent_id === input.fromId ? position++ : row.position,
      title: row.title,
      content: input.rewrite(row.content),
    });
    if (row.object === 'page') pages.push([row.id, id]);
  }
  const values = await loadValues(
    db,
    pages.map(([from]) => from),
  );
  for (const [from, to] of pages) {
    for (const value of values.get(from) ?? [])
      await storeValue(db, to, value.data_source_id, value.property_id, JSON.parse(input.rewrite(value.value)) as StoredValue);
  }
  return copies.size - 1;
}
