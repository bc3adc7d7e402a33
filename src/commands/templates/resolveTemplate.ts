import type { Db } from '../../storage/db.js';
import type { Caller } from '../../auth/capabilities.js';
import type { TemplateInput } from '../../schemas/templates.js';
import { invalidField, type FieldPath } from '../../errors/validationFailure.js';
import { normalizeId } from '../../ids/ids.js';
import { findObjectForConnection } from '../../storage/repositories/grants.js';
import { listTemplatesOf } from '../../storage/repositories/templates.js';
import { isTimeZone } from '../../domain/pages/templatePlaceholders.js';

export interface ResolvedTemplate {
  templateId: string;
  timeZone: string;
}

/**
 * The page a `template` request names (FACTS.md §10.4): the data source's default template, or
 * any page the connection can see in its workspace. Every refusal is a validation error naming
 * the field — an unknown or unshared template id is bad input here, not a missing object — and
 * `none` is no template. The time zone defaults to UTC, as for internal integrations.
 */
export async function resolveTemplate(
  db: Db,
  caller: Caller,
  template: TemplateInput | undefined,
  dataSourceId: string | null,
  path: FieldPath = ['template'],
): Promise<ResolvedTemplate | null> {
  if (!template || template.type === 'none') return null;
  if (template.timezone !== undefined && !isTimeZone(template.timezone)) {
    throw invalidField([...path, 'timezone'], 'should be an IANA time zone name, such as `Europe/Paris`', template.timezone);
  }
  const timeZone = template.timezone ?? 'UTC';
  if (template.type === 'default') {
    if (!dataSourceId)
      throw invalidField(
        [...path, 'type'],
        'should be `template_id` or `none` for a page outside a data source (only data sources have a default template)',
        'default',
      );
    const found = (await listTemplatesOf(db, dataSourceId)).find((t) => t.is_default === 1);
    if (!found) throw invalidField([...path, 'type'], `should not be \`default\`: data source ${dataSourceId} has no default template`, 'default');
    return { templateId: found.page_id, timeZone };
  }
  const id = normalizeId(template.template_id);
  const found = id ? await findObjectForConnection(db, id, caller.connectionId) : undefined;
  const at = [...path, 'template_id'];
  if (!found || !found.shared || found.row.workspace_id !== caller.workspaceId || found.row.object !== 'page') {
    throw invalidField(at, 'should be the ID of a page shared with the integration', template.template_id);
  }
  if (found.row.in_trash === 1) throw invalidField(at, 'should be a page that is not in the trash', template.template_id);
  return { templateId: found.row.id, timeZone };
}
