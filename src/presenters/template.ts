import type { Static } from 'typebox';
import type { ListView } from '../domain/views.js';
import type { TemplateRow } from '../storage/repositories/templates.js';
import type { Template, TemplateListResponse } from '../schemas/templates.js';

export function presentTemplate(row: TemplateRow): Static<typeof Template> {
  return { id: row.page_id, name: row.name, is_default: row.is_default === 1 };
}

export function presentTemplateList(list: ListView<TemplateRow>): Static<typeof TemplateListResponse> {
  return { templates: list.items.map(presentTemplate), has_more: list.nextCursor !== null, next_cursor: list.nextCursor };
}
