import type { Db } from '../../storage/db.js';
import type { ObjectRow, ParentType } from '../../storage/schema.js';
import { insertObject, nextPosition } from '../../storage/repositories/objects.js';
import { upsertPropertyValue } from '../../storage/repositories/propertyValues.js';
import { newId } from '../../ids/ids.js';
import { plainText, type RichTextItem } from '../richText.js';
import { newObjectState } from '../newObjectState.js';

export interface PageRecordInput {
  workspaceId: string;
  parentType: ParentType;
  parentId: string | null;
  actorId: string;
  title: RichTextItem[];
  /** Id of the title property: "title" outside databases, the schema's id inside one. */
  titlePropertyId?: string;
  dataSourceId?: string | null;
  icon?: unknown;
  cover?: unknown;
  /** One timestamp for everything a request writes (the command reads it from its clock). */
  at: string;
}

/** Writes a page row, its closure rows and its title value; the caller owns the transaction. */
export async function insertPage(db: Db, input: PageRecordInput): Promise<ObjectRow> {
  const at = input.at;
  const title = plainText(input.title);
  const row: ObjectRow = {
    id: newId(),
    workspace_id: input.workspaceId,
    object: 'page',
    type: null,
    parent_type: input.parentType,
    parent_id: input.parentId,
    position: await nextPosition(db, input.parentId),
    title,
    content: JSON.stringify({ icon: input.icon ?? null, cover: input.cover ?? null }),
    ...newObjectState(input.actorId, at),
  };
  await insertObject(db, row);
  await upsertPropertyValue(db, {
    page_id: row.id,
    property_id: input.titlePropertyId ?? 'title',
    data_source_id: input.dataSourceId ?? null,
    value: JSON.stringify({ type: 'title', title: input.title }),
    text_value: title || null,
  });
  return row;
}
