import type { Transaction } from 'kysely';
import type { DB } from '../../storage/schema.js';
import type { ObjectRow } from '../../storage/schema.js';
import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import { findObject } from '../../storage/repositories/objects.js';
import { parseContent, type DataSourceContent } from '../../domain/contentShapes.js';
import { SchemaEditor } from '../../domain/properties/schemaEditor.js';
import { applySchemaEffects } from '../../domain/properties/applySchemaEffects.js';
import type { Schema } from '../../domain/properties/schemaTypes.js';
import { lockRow, writeObjectContent } from '../../storage/repositories/objects.js';
import type { FieldPath } from '../../errors/validationFailure.js';
import { recordEvent } from '../events/recordEvent.js';
import { schemaEvents } from '../events/objectEvents.js';

/**
 * Applies a `properties` PATCH to a data source, keeps its pages (and related data sources) in
 * step and saves it, stamping the edit.
 */
export async function updateSchema(
  ctx: AppContext,
  trx: Transaction<DB>,
  caller: Caller,
  sourceRow: ObjectRow,
  properties: Record<string, unknown>,
  path: FieldPath,
  at: string,
): Promise<void> {
  await lockRow(trx, sourceRow.id);
  const row = (await findObject(trx, sourceRow.id))!;
  const content = parseContent<DataSourceContent>(row.content);
  const before = propertiesById(content.properties as Schema);
  const editor = new SchemaEditor(trx, caller, { id: row.id, databaseId: row.parent_id!, title: row.title, schema: content.properties as Schema, row });
  await editor.update(properties, path);
  await applySchemaEffects(trx, caller.workspaceId, editor, at, caller.botId);
  await writeObjectContent(trx, row.id, { ...content, properties: editor.self.schema }, { at, by: caller.botId });
  await recordEvent(ctx, trx, caller, at, ...(await schemaEvents(trx, row, schemaChanges(before, propertiesById(editor.self.schema)))));
}

function propertiesById(schema: Schema): Map<string, { name: string; json: string }> {
  return new Map(Object.values(schema).map((property) => [property.id, { name: property.name, json: JSON.stringify(property) }]));
}

/** What `data_source.schema_updated` lists (FACTS.md §10.10.4): each property created, updated or deleted. */
function schemaChanges(before: Map<string, { name: string; json: string }>, after: Map<string, { name: string; json: string }>) {
  const changes: { id: string; name: string | null; action: 'created' | 'updated' | 'deleted' }[] = [];
  for (const [id, now] of after) {
    const was = before.get(id);
    if (!was) changes.push({ id, name: now.name, action: 'created' });
    else if (was.name !== now.name || was.json !== now.json) changes.push({ id, name: now.name, action: 'updated' });
  }
  for (const id of before.keys()) if (!after.has(id)) changes.push({ id, name: null, action: 'deleted' });
  return changes;
}
