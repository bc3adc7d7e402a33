import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import type { CreateViewInput } from '../../schemas/databaseViews.js';
import { assertEditable, loadVisibleObject } from '../../auth/access.js';
import { insertObject, nextPosition } from '../../storage/repositories/objects.js';
import { findListedChild, shiftChildren } from '../../storage/repositories/blocks.js';
import { invalidField } from '../../errors/validationFailure.js';
import { newId, normalizeId } from '../../ids/ids.js';
import { parseContent, type DatabaseContent, type DataSourceContent } from '../../domain/contentShapes.js';
import { newObjectState } from '../../domain/newObjectState.js';

type CreateDatabaseInput = NonNullable<CreateViewInput['create_database']>;

/**
 * `create_database` (FACTS.md §10.8 8.4): a new inline database on a page, holding no data source
 * of its own, whose first view shows `source` (a linked database). It goes after `position.block_id`,
 * which must be a direct child of the page, or last. Returns the new database's id.
 */
export async function createLinkedDatabase(db: Db, caller: Caller, input: CreateDatabaseInput, source: ObjectRow, at: string): Promise<string> {
  const page = await loadVisibleObject(db, caller, normalizeId(input.parent.page_id)!, ['page'], 'page', input.parent.page_id);
  assertEditable(page);
  let position: number;
  if (input.position) {
    const after = await findListedChild(db, page.id, normalizeId(input.position.block_id)!);
    if (!after) throw invalidField(['create_database', 'position', 'block_id'], 'should be the ID of a direct child of the page', input.position.block_id);
    position = after.position + 1;
    await shiftChildren(db, page.id, position, 1);
  } else {
    position = await nextPosition(db, page.id);
  }
  const sourceContent = parseContent<DataSourceContent>(source.content);
  const content: DatabaseContent = { title: sourceContent.title, description: [], icon: null, cover: null, is_inline: true };
  const id = newId();
  await insertObject(db, {
    id,
    workspace_id: caller.workspaceId,
    object: 'database',
    type: null,
    parent_type: 'page_id',
    parent_id: page.id,
    position,
    title: source.title,
    content: JSON.stringify(content),
    ...newObjectState(caller.botId, at),
  });
  return id;
}
