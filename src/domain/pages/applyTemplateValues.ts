import type { ObjectRow } from '../../storage/schema.js';
import { findObject, lockRow, updateObject, writeObjectContent } from '../../storage/repositories/objects.js';
import { loadValues } from '../../storage/repositories/propertyValues.js';
import { parseContent, type DataSourceContent } from '../contentShapes.js';
import type { Schema } from '../properties/schemaTypes.js';
import type { StoredValue } from '../properties/storedValue.js';
import type { ValueContext } from '../properties/valueContext.js';
import { emptyValue } from '../properties/emptyValue.js';
import { storeValue } from '../properties/storeValue.js';
import { writePageValues } from '../properties/writePageValues.js';
import { refreshComputed } from '../properties/refreshComputed.js';
import { plainText, type RichTextItem } from '../richText.js';
import { mapValuesByName } from './valueMapping.js';

async function schemaOf(ctx: ValueContext, row: ObjectRow): Promise<{ source: ObjectRow; content: DataSourceContent; schema: Schema } | null> {
  if (row.parent_type !== 'data_source_id' || !row.parent_id) return null;
  const source = await findObject(ctx.db, row.parent_id);
  if (!source) return null;
  const content = parseContent<DataSourceContent>(source.content);
  return { source, content, schema: content.properties as Schema };
}

/**
 * Merges a template's property values into a page (FACTS.md §10.4): a value goes where the page
 * has the same property (by name and type, mapValuesByName) and the page's own value is still
 * empty and was not given by the request that asked for the template (`given`, property ids), so
 * a template fills a page and never overwrites what the caller wrote. `rewrite` fills the
 * template's placeholders in each value.
 */
export async function applyTemplateValues(
  ctx: ValueContext,
  page: ObjectRow,
  template: ObjectRow,
  given: ReadonlySet<string>,
  at: string,
  rewrite: (json: string) => string,
): Promise<void> {
  const db = ctx.db;
  if (page.parent_id) await lockRow(db, page.parent_id);
  const target = await schemaOf(ctx, page);
  const from = await schemaOf(ctx, template);
  const values = await loadValues(db, [page.id, template.id]);
  const parsed = (id: string) => new Map((values.get(id) ?? []).map((v) => [v.property_id, JSON.parse(rewrite(v.value)) as StoredValue]));
  const current = parsed(page.id);
  const templateValues = parsed(template.id);
  const schema: Schema = target?.schema ?? { title: { id: 'title', name: 'title', description: null, type: 'title', title: {} } };
  const { direct, request } = mapValuesByName(from?.schema ?? null, templateValues, schema);
  const open = (propertyId: string) => {
    if (given.has(propertyId)) return false;
    const mine = current.get(propertyId);
    return !mine || JSON.stringify(mine) === JSON.stringify(emptyValue(schema[propertyId]));
  };
  let title: string | undefined;
  for (const [propertyId, value] of direct) {
    if (!open(propertyId)) continue;
    await storeValue(db, page.id, target?.source.id ?? null, propertyId, value);
    if (schema[propertyId].type === 'title') title = plainText((value.title as RichTextItem[]) ?? []);
  }
  if (!target) {
    if (title !== undefined) await updateObject(db, page.id, { title });
    return;
  }
  const asked = Object.fromEntries(Object.entries(request).filter(([propertyId]) => open(propertyId)));
  const written = await writePageValues(ctx, { pageId: page.id, dataSourceId: target.source.id, schema: target.schema, current, creating: false, at }, asked, [
    'properties',
  ]);
  if (title !== undefined) await updateObject(db, page.id, { title });
  if (ctx.schemaChanged) await writeObjectContent(db, target.source.id, target.content);
  await refreshComputed(db, page.workspace_id, written.changed, ctx.now);
}
