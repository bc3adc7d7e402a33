import { parseIdParam } from '../ids/ids.js';
import { CreatePageBody, WorkspaceParams } from '../schemas/admin.js';
import { PageObject } from '../schemas/pages.js';
import { presentPage } from '../presenters/page.js';
import { createTopLevelPage } from '../commands/admin/pages.js';
import { adminOperation, bodyOption, pathOption, type AnyAdminOperation } from './adminOperation.js';

export const PAGE_OPERATIONS: readonly AnyAdminOperation[] = [
  adminOperation({
    method: 'POST',
    path: '/workspaces/:workspace_id/pages',
    params: WorkspaceParams,
    body: CreatePageBody,
    // The API's page object, as GET /v1/pages/{id} shows it.
    response: PageObject,
    run: (ctx, { params, body }) => {
      const createdBy = body.created_by === undefined ? undefined : parseIdParam(body.created_by, 'created_by');
      return createTopLevelPage(ctx, params.workspace_id, { ...body, created_by: createdBy });
    },
    present: (view, ctx) => presentPage(view, { baseUrl: ctx.config.publicUrl }),
    cli: {
      name: 'create-page',
      description: 'create a top-level page, to share with a connection',
      options: [
        pathOption('--workspace <id>', 'workspace_id'),
        bodyOption('--title <title>', 'title', { required: true }),
        bodyOption('--created-by <id>', 'created_by', { description: "a user of the workspace (default: the workspace's first person)" }),
      ],
    },
  }),
];
