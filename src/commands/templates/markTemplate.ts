import type { AppContext } from '../../context.js';
import type { MarkTemplateInput } from '../../schemas/templates.js';
import { ApiError } from '../../errors/registry.js';
import { invalidField } from '../../errors/validationFailure.js';
import { normalizeId } from '../../ids/ids.js';
import { findObject, lockRow } from '../../storage/repositories/objects.js';
import { deleteTemplate, listTemplatesOf, upsertTemplate, type TemplateRow } from '../../storage/repositories/templates.js';

const sourceNotFound = (id: string) => new ApiError('object_not_found', `Could not find data source with ID: ${id}.`);

/**
 * The operator marks a page of a data source as one of its templates; `is_default` makes it the
 * one default (the old default stops being it). Marking a template again sets its `is_default`.
 */
export async function markTemplate(ctx: AppContext, dataSourceId: string, body: MarkTemplateInput): Promise<TemplateRow> {
  const pageId = normalizeId(body.page_id);
  if (!pageId) throw invalidField(['page_id'], 'should be a UUID', body.page_id);
  return ctx.store.transaction(async (trx) => {
    const source = await findObject(trx, dataSourceId);
    if (!source || source.object !== 'data_source') throw sourceNotFound(dataSourceId);
    // One default at a time: concurrent marks of one data source take turns.
    await lockRow(trx, source.id);
    const page = await findObject(trx, pageId);
    if (!page || page.object !== 'page' || page.parent_type !== 'data_source_id' || page.parent_id !== source.id || page.in_trash === 1) {
      throw invalidField(['page_id'], `should be a page of data source ${source.id} that is not in the trash`, body.page_id);
    }
    await upsertTemplate(trx, {
      data_source_id: source.id,
      page_id: page.id,
      workspace_id: source.workspace_id,
      is_default: body.is_default ? 1 : 0,
      created_time: ctx.clock.now().toISOString(),
    });
    return (await listTemplatesOf(trx, source.id)).find((t) => t.page_id === page.id)!;
  });
}

/** The page stays; it only stops being offered as a template. */
export async function unmarkTemplate(ctx: AppContext, dataSourceId: string, pageId: string): Promise<void> {
  if (!(await deleteTemplate(ctx.store.db, dataSourceId, pageId))) {
    throw new ApiError('object_not_found', `Could not find template ${pageId} of data source ${dataSourceId}.`);
  }
}
