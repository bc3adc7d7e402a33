import { DataSourceAdminParams, MarkTemplateBody, Template, TemplateAdminParams } from '../schemas/templates.js';
import { presentTemplate } from '../presenters/template.js';
import { markTemplate, unmarkTemplate } from '../commands/templates/markTemplate.js';
import { adminOperation, bodyOption, deletion, pathOption, type AnyAdminOperation } from './adminOperation.js';

export const TEMPLATE_OPERATIONS: readonly AnyAdminOperation[] = [
  adminOperation({
    method: 'POST',
    path: '/data_sources/:data_source_id/templates',
    params: DataSourceAdminParams,
    body: MarkTemplateBody,
    response: Template,
    run: (ctx, { params, body }) => markTemplate(ctx, params.data_source_id, body),
    present: presentTemplate,
    cli: {
      name: 'mark-template',
      description: 'make a page of a data source one of its templates',
      options: [
        pathOption('--data-source <id>', 'data_source_id'),
        bodyOption('--page <id>', 'page_id', { required: true }),
        bodyOption('--default', 'is_default', { description: "make it the data source's default template", convert: (value) => value === true }),
      ],
    },
  }),
  deletion({
    path: '/data_sources/:data_source_id/templates/:page_id',
    params: TemplateAdminParams,
    object: 'template',
    idParam: 'page_id',
    remove: (ctx, params) => unmarkTemplate(ctx, params.data_source_id, params.page_id),
    cli: {
      name: 'unmark-template',
      description: 'stop offering a page as a template (the page stays)',
      options: [pathOption('--data-source <id>', 'data_source_id'), pathOption('--page <id>', 'page_id')],
    },
  }),
];
