import type { Db } from '../../storage/db.js';
import { parseContent, type DataSourceContent } from '../contentShapes.js';
import { emptyValue } from './emptyValue.js';
import { isComputed } from './registry.js';
import { storeValue } from './storeValue.js';
import type { StoredValue } from './storedValue.js';
import { refreshComputed } from './refreshComputed.js';
import type { EditedSource, SchemaEditor } from './schemaEditor.js';
import { configOf, type RelationConfig, type SelectConfig, type UniqueIdConfig } from './schemaTypes.js';
import { deleteValues, loadValues } from '../../storage/repositories/propertyValues.js';
import { listPagesOf, writeObjectContent } from '../../storage/repositories/objects.js';

/** Select, multi_select and status values follow their options: renamed, recoloured or removed. */
function reReadOptions(value: StoredValue, options: SelectConfig['options']): StoredValue {
  const current = (o: { id: string }) => options.find((x) => x.id === o.id);
  const present = (o: { id: string; name: string; color: string }) => ({ id: o.id, name: o.name, color: o.color });
  const member = value[value.type];
  if (Array.isArray(member)) return { ...value, [value.type]: member.flatMap((o: { id: string }) => (current(o) ? [present(current(o)!)] : [])) };
  if (member && typeof member === 'object') {
    const option = current(member as { id: string });
    return { ...value, [value.type]: option ? present(option) : null };
  }
  return value;
}

/**
 * Brings the pages of one data source in line with its edited schema: values of deleted or reset
 * properties go, options are re-read, every property gets a value (new unique ids are numbered in
 * creation order), and partners of relations that became dual get the mirrored values.
 */
async function alignPages(db: Db, editor: SchemaEditor, source: EditedSource, mirrored: Mirrored): Promise<string[]> {
  const effects = editor.effectsOf(source.id);
  await deleteValues(db, source.id, [...effects.deleted, ...effects.reset]);
  const pages = await listPagesOf(db, source.id);
  const values = await loadValues(
    db,
    pages.map((p) => p.id),
  );
  for (const page of pages) {
    const byProperty = new Map((values.get(page.id) ?? []).filter((v) => !effects.reset.has(v.property_id)).map((v) => [v.property_id, v]));
    for (const property of Object.values(source.schema)) {
      const row = byProperty.get(property.id);
      if (row && effects.options.has(property.id)) {
        const value = reReadOptions(JSON.parse(row.value) as StoredValue, configOf<SelectConfig>(property).options);
        await storeValue(db, page.id, source.id, property.id, value);
      }
      if (row && effects.newlyDual.has(property.id)) {
        const config = configOf<RelationConfig>(property);
        const related = (JSON.parse(row.value) as StoredValue).relation as { id: string }[];
        const key = `${config.data_source_id} ${config.dual_property!.synced_property_id}`;
        const partnerValues = mirrored.get(key) ?? new Map<string, string[]>();
        mirrored.set(key, partnerValues);
        for (const r of related) partnerValues.set(r.id, [...(partnerValues.get(r.id) ?? []), page.id]);
      }
      if (row || (isComputed(property.type) && property.type !== 'unique_id')) continue;
      let value = emptyValue(property);
      if (property.type === 'unique_id') {
        const config = configOf<UniqueIdConfig>(property);
        value = { type: 'unique_id', unique_id: { prefix: config.prefix, number: config.next_number++ } };
      }
      await storeValue(db, page.id, source.id, property.id, value);
    }
  }
  return pages.map((p) => p.id);
}

/** Values of the other side of relations that became dual: "<data source> <property>" → page → related pages. */
type Mirrored = Map<string, Map<string, string[]>>;

/**
 * After a schema edit: aligns the pages of every data source the edit touched, saves the schemas
 * of the data sources other than the edited one (the command saves that one with its other
 * fields), then recomputes computed values everywhere they may have changed.
 */
export async function applySchemaEffects(db: Db, workspaceId: string, editor: SchemaEditor, at: string, actorId: string): Promise<void> {
  const touched = [editor.self, ...editor.touchedOthers()];
  const pageIds: string[] = [];
  const mirrored: Mirrored = new Map();
  for (const source of touched) pageIds.push(...(await alignPages(db, editor, source, mirrored)));
  for (const [key, byPage] of mirrored) {
    const [dataSourceId, propertyId] = key.split(' ');
    for (const [pageId, related] of byPage)
      await storeValue(db, pageId, dataSourceId, propertyId, { type: 'relation', relation: related.map((id) => ({ id })) });
  }
  for (const source of editor.touchedOthers()) {
    const content = parseContent<DataSourceContent>(source.row!.content);
    await writeObjectContent(db, source.id, { ...content, properties: source.schema }, { at, by: actorId });
  }
  // Time marks are internal: nobody edited these data sources, and their values are unchanged.
  for (const source of editor.remarkedOthers()) {
    const content = parseContent<DataSourceContent>(source.row!.content);
    await writeObjectContent(db, source.id, { ...content, properties: source.schema });
  }
  const overrides = new Map(touched.map((s) => [s.id, s.schema]));
  await refreshComputed(db, workspaceId, pageIds, new Date(at), overrides);
}
