import { Type, type Static } from 'typebox';
import { IdString, PageSizeQuery, StrictObject } from './common.js';
import { Closed, Id, Nullable } from './objectParts.js';

/** SDK `TemplateTimezone`: an IANA zone name; the command checks it names a zone Node knows. */
const Timezone = Type.String({ minLength: 1, maxLength: 100 });

const DefaultTemplate = StrictObject({ type: Type.Literal('default'), timezone: Type.Optional(Timezone) });
const TemplateById = StrictObject({ type: Type.Literal('template_id'), template_id: IdString, timezone: Type.Optional(Timezone) });

/** `template` of POST /v1/pages (FACTS.md §10.4): none, the data source's default, or a page by id. */
export const CreatePageTemplate = Type.Union([StrictObject({ type: Type.Literal('none') }), DefaultTemplate, TemplateById]);
/** `template` of PATCH /v1/pages/{id}: no `none` there. */
export const UpdatePageTemplate = Type.Union([DefaultTemplate, TemplateById]);
export type TemplateInput = Static<typeof CreatePageTemplate>;

/** SDK `ListDataSourceTemplatesParameters` (query part). */
export const TemplateListQuery = StrictObject({
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  start_cursor: Type.Optional(Type.String({ maxLength: 2000 })),
  page_size: Type.Optional(PageSizeQuery),
});
export type TemplateListOptions = Static<typeof TemplateListQuery>;

export const Template = Type.Object({ id: Id, name: Type.String(), is_default: Type.Boolean() }, Closed);

/** SDK `ListDataSourceTemplatesResponse`: not the list envelope, no `object` or `results`. */
export const TemplateListResponse = Type.Object({ templates: Type.Array(Template), has_more: Type.Boolean(), next_cursor: Nullable(Type.String()) }, Closed);

/** `POST /admin/v1/data_sources/{id}/templates`: the operator marks a page of the data source. */
export const MarkTemplateBody = StrictObject({ page_id: Type.String(), is_default: Type.Optional(Type.Boolean()) });
export type MarkTemplateInput = Static<typeof MarkTemplateBody>;
export const DataSourceAdminParams = StrictObject({ data_source_id: Type.String() });
export const TemplateAdminParams = StrictObject({ data_source_id: Type.String(), page_id: Type.String() });
