import { AdminContentObject, AdminList, ContentObjectsQuery, WorkspaceParams } from '../schemas/admin.js';
import { presentAdminList, presentContentObject } from '../presenters/adminObjects.js';
import { getContentObject, listContentObjects } from '../commands/admin/contentObjects.js';
import { StrictObject } from '../schemas/common.js';
import { Type } from 'typebox';

const ObjectParams = StrictObject({ object_id: Type.String() });
import { adminOperation, pathOption, type AnyAdminOperation } from './adminOperation.js';

/** What a workspace holds, as the operator (and the console's page tree) sees it: everything, shared or not. */
export const CONTENT_OPERATIONS: readonly AnyAdminOperation[] = [
  adminOperation({
    method: 'GET',
    path: '/workspaces/:workspace_id/objects',
    params: WorkspaceParams,
    query: ContentObjectsQuery,
    response: AdminList(AdminContentObject),
    run: (ctx, { params, query }) => listContentObjects(ctx, params.workspace_id, query),
    present: (list) => presentAdminList(list, presentContentObject),
    cli: {
      name: 'list-objects',
      description: "list a workspace's pages and databases, one level of its tree",
      options: [
        pathOption('--workspace <id>', 'workspace_id'),
        { flags: '--parent <id>', description: 'the page whose children to list (default: the top level)', to: { part: 'query', field: 'parent_id' } },
        { flags: '--page-size <n>', description: 'results per page (1-100, default 100)', to: { part: 'query', field: 'page_size' } },
        { flags: '--start-cursor <cursor>', description: 'next_cursor of the previous page', to: { part: 'query', field: 'start_cursor' } },
      ],
    },
  }),
  adminOperation({
    method: 'GET',
    path: '/objects/:object_id',
    params: ObjectParams,
    response: AdminContentObject,
    run: (ctx, { params }) => getContentObject(ctx, params.object_id),
    present: presentContentObject,
    cli: { name: 'get-object', description: 'show one page or database of any workspace', options: [pathOption('--object <id>', 'object_id')] },
  }),
];
