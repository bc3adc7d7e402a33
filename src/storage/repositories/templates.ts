import type { Db } from '../db.js';
import type { DataSourceTemplateRow } from '../schema.js';

export type TemplateRow = DataSourceTemplateRow & { name: string };

/**
 * The templates of a data source whose pages are still its rows and not in the trash (a template
 * moved away or trashed stops being offered, and comes back with its page), in the order they
 * were marked.
 */
export async function listTemplatesOf(db: Db, dataSourceId: string): Promise<TemplateRow[]> {
  return db
    .selectFrom('data_source_templates as t')
    .innerJoin('objects as o', 'o.id', 't.page_id')
    .selectAll('t')
    .select('o.title as name')
    .where('t.data_source_id', '=', dataSourceId)
    .where('o.parent_type', '=', 'data_source_id')
    .where('o.parent_id', '=', dataSourceId)
    .where('o.in_trash', '=', 0)
    .orderBy('t.created_time')
    .orderBy('t.page_id')
    .execute();
}

/** Marks (or re-marks) a page as a template; a new default unmarks the old one. */
export async function upsertTemplate(db: Db, row: DataSourceTemplateRow): Promise<void> {
  if (row.is_default === 1) {
    await db.updateTable('data_source_templates').set({ is_default: 0 }).where('data_source_id', '=', row.data_source_id).execute();
  }
  const existing = await db
    .selectFrom('data_source_templates')
    .select('page_id')
    .where('data_source_id', '=', row.data_source_id)
    .where('page_id', '=', row.page_id)
    .executeTakeFirst();
  if (existing) {
    await db
      .updateTable('data_source_templates')
      .set({ is_default: row.is_default })
      .where('data_source_id', '=', row.data_source_id)
      .where('page_id', '=', row.page_id)
      .execute();
  } else {
    await db.insertInto('data_source_templates').values(row).execute();
  }
}

export async function deleteTemplate(db: Db, dataSourceId: string, pageId: string): Promise<boolean> {
  const result = await db.deleteFrom('data_source_templates').where('data_source_id', '=', dataSourceId).where('page_id', '=', pageId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
