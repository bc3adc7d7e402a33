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

/**
 * Applies a `properties` PATCH to a data source, keeps its pages (and related data sources) in
 * step and saves it, stamping the edit.
 */
export async function updateSchema(
  _ctx: AppContext,
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
  const editor = new SchemaEditor(trx, caller, { id: row.id, databaseId: row.parent_id!, title: row.title, schema: content.properties as Schema, row });
  await editor.update(properties, path);
  await applySchemaEffects(trx, caller.workspaceId, editor, at, caller.botId);
  await writeObjectContent(trx, row.id, { ...content, properties: editor.self.schema }, { at, by: caller.botId });
}
