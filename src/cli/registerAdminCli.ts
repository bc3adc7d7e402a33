import type { Command } from 'commander';
import type { TSchema } from 'typebox';
import type { ErrorObject } from 'ajv';
import type { AppContext } from '../context.js';
import { loadConfig } from '../config.js';
import { createCore } from '../core.js';
import {
  presentAdminList,
  presentConnection,
  presentDeleted,
  presentGrant,
  presentIssuedToken,
  presentOperatorUser,
  presentWorkspace,
} from '../presenters/adminObjects.js';
import { presentPage } from '../presenters/page.js';
import { validationFailureOf } from '../errors/validationMessage.js';
import { validatorCompiler } from '../http/validators.js';
import { parseIdParam } from '../ids/ids.js';
import {
  AdminListQuery,
  CreateConnectionBody,
  CreatePageBody,
  CreateUserBody,
  CreateWorkspaceBody,
  UpdateConnectionBody,
  type AdminListOptions,
} from '../schemas/admin.js';
import { createWorkspace, deleteWorkspace, getWorkspace, listAllWorkspaces } from '../commands/admin/workspaces.js';
import { createPerson, deletePerson, listUsersOf } from '../commands/admin/users.js';
import {
  changeConnection,
  createConnection,
  deleteConnection,
  getConnection,
  grantAccess,
  listConnectionsOf,
  listGrantsOf,
  revokeAccess,
  rotateConnectionToken,
} from '../commands/admin/connections.js';
import { createTopLevelPage } from '../commands/admin/pages.js';

/**
 * Admin actions run the same commands as /admin/v1, directly on the configured store, and print
 * what the same route would answer (the route's presenter).
 */
async function withStore<T>(action: (ctx: AppContext) => Promise<T>, present: (result: T) => unknown): Promise<void> {
  const core = await createCore(loadConfig());
  try {
    const result = present(await action(core));
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await core.close();
  }
}

/** Options are checked against the HTTP body schema, so both refuse the same input alike. */
function checked<T>(schema: TSchema, input: Record<string, unknown>, part: 'body' | 'query' = 'body'): T {
  const value = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const validate = validatorCompiler({ schema, method: 'POST', url: 'folio admin', httpPart: part === 'body' ? 'body' : 'querystring' }) as ((
    v: unknown,
  ) => boolean) & { errors?: ErrorObject[] | null };
  if (!validate(value)) throw validationFailureOf(part, validate.errors ?? []);
  return value as T;
}

const list = (raw: string) =>
  raw
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
const listOptions = (o: { pageSize?: string; startCursor?: string }) =>
  checked<AdminListOptions>(AdminListQuery, { page_size: o.pageSize, start_cursor: o.startCursor }, 'query');

/** The `folio admin` subcommands, one per admin-plane action. */
export function registerAdminCli(program: Command): void {
  const admin = program
    .command('admin')
    .description('operator actions, run directly on the configured store (same environment variables as the server; no server needed)');
  const paged = (command: Command) =>
    command.option('--page-size <n>', 'results per page (1-100, default 100)').option('--start-cursor <cursor>', 'next_cursor of the previous page');

  admin
    .command('create-workspace')
    .description('create a workspace')
    .requiredOption('--name <name>')
    .action((o: { name: string }) => withStore((ctx) => createWorkspace(ctx, checked(CreateWorkspaceBody, o)), presentWorkspace));
  paged(admin.command('list-workspaces').description('list every workspace')).action((o: { pageSize?: string; startCursor?: string }) =>
    withStore(
      (ctx) => listAllWorkspaces(ctx, listOptions(o)),
      (list) => presentAdminList(list, presentWorkspace),
    ),
  );
  admin
    .command('get-workspace')
    .description('show one workspace')
    .requiredOption('--workspace <id>')
    .action((o: { workspace: string }) => withStore((ctx) => getWorkspace(ctx, parseIdParam(o.workspace, 'workspace_id')), presentWorkspace));
  admin
    .command('delete-workspace')
    .description('delete a workspace and everything in it: users, connections, grants and content')
    .requiredOption('--workspace <id>')
    .action((o: { workspace: string }) => {
      const id = parseIdParam(o.workspace, 'workspace_id');
      return withStore(
        (ctx) => deleteWorkspace(ctx, id),
        () => presentDeleted('workspace', id),
      );
    });

  admin
    .command('create-user')
    .description('add a person to a workspace')
    .requiredOption('--workspace <id>')
    .requiredOption('--name <name>')
    .requiredOption('--email <email>')
    .option('--meeting-notes', 'enable AI meeting notes for this user (the default)')
    .option('--no-meeting-notes', 'disable AI meeting notes for this user')
    .action((o: { workspace: string; name: string; email: string; meetingNotes?: boolean }) =>
      withStore(
        (ctx) =>
          createPerson(
            ctx,
            parseIdParam(o.workspace, 'workspace_id'),
            checked(CreateUserBody, { name: o.name, email: o.email, meeting_notes_enabled: o.meetingNotes !== false }),
          ),
        presentOperatorUser,
      ),
    );
  paged(admin.command('list-users').description("list a workspace's people and connection bots").requiredOption('--workspace <id>')).action(
    (o: { workspace: string; pageSize?: string; startCursor?: string }) =>
      withStore(
        (ctx) => listUsersOf(ctx, parseIdParam(o.workspace, 'workspace_id'), listOptions(o)),
        (list) => presentAdminList(list, presentOperatorUser),
      ),
  );
  admin
    .command('delete-user')
    .description('delete a person (refused while a connection acts for them)')
    .requiredOption('--workspace <id>')
    .requiredOption('--user <id>')
    .action((o: { workspace: string; user: string }) =>
      withStore(
        (ctx) => deletePerson(ctx, parseIdParam(o.workspace, 'workspace_id'), parseIdParam(o.user, 'user_id')),
        () => presentDeleted('user', parseIdParam(o.user, 'user_id')),
      ),
    );

  admin
    .command('create-connection')
    .description('create a connection and print its token (shown only once)')
    .requiredOption('--workspace <id>')
    .requiredOption('--name <name>')
    .requiredOption('--kind <kind>', 'internal, public or personal')
    .option('--capabilities <list>', 'comma-separated', 'read_content,update_content,insert_content,user_info_with_email')
    .option('--user <id>', 'the person a public or personal token acts for')
    .action((o: { workspace: string; name: string; kind: string; capabilities: string; user?: string }) =>
      withStore((ctx) => {
        const body = checked<{ name: string; kind: 'internal' | 'public' | 'personal'; capabilities: string[]; user_id?: string }>(CreateConnectionBody, {
          name: o.name,
          kind: o.kind,
          capabilities: list(o.capabilities),
          user_id: o.user,
        });
        return createConnection(ctx, parseIdParam(o.workspace, 'workspace_id'), {
          ...body,
          user_id: body.user_id === undefined ? undefined : parseIdParam(body.user_id, 'user_id'),
        });
      }, presentIssuedToken),
    );
  paged(admin.command('list-connections').description("list a workspace's live connections").requiredOption('--workspace <id>')).action(
    (o: { workspace: string; pageSize?: string; startCursor?: string }) =>
      withStore(
        (ctx) => listConnectionsOf(ctx, parseIdParam(o.workspace, 'workspace_id'), listOptions(o)),
        (list) => presentAdminList(list, presentConnection),
      ),
  );
  admin
    .command('get-connection')
    .description('show one connection (never its token)')
    .requiredOption('--connection <id>')
    .action((o: { connection: string }) => withStore((ctx) => getConnection(ctx, parseIdParam(o.connection, 'connection_id')), presentConnection));
  admin
    .command('update-connection')
    .description('rename a connection or replace its capabilities')
    .requiredOption('--connection <id>')
    .option('--name <name>')
    .option('--capabilities <list>', 'comma-separated; replaces the current list')
    .action((o: { connection: string; name?: string; capabilities?: string }) =>
      withStore(
        (ctx) =>
          changeConnection(
            ctx,
            parseIdParam(o.connection, 'connection_id'),
            checked(UpdateConnectionBody, { name: o.name, capabilities: o.capabilities === undefined ? undefined : list(o.capabilities) }),
          ),
        presentConnection,
      ),
    );
  admin
    .command('rotate-token')
    .description('give a connection a new token and print it (the old one stops working at once)')
    .requiredOption('--connection <id>')
    .action((o: { connection: string }) => withStore((ctx) => rotateConnectionToken(ctx, parseIdParam(o.connection, 'connection_id')), presentIssuedToken));
  admin
    .command('delete-connection')
    .description('revoke a connection: its token stops working at once')
    .requiredOption('--connection <id>')
    .action((o: { connection: string }) => {
      const id = parseIdParam(o.connection, 'connection_id');
      return withStore(
        (ctx) => deleteConnection(ctx, id),
        () => presentDeleted('connection', id),
      );
    });

  admin
    .command('create-page')
    .description('create a top-level page, to share with a connection')
    .requiredOption('--workspace <id>')
    .requiredOption('--title <title>')
    .option('--created-by <id>', "a user of the workspace (default: the workspace's first person)")
    .action((o: { workspace: string; title: string; createdBy?: string }) =>
      withStore(
        (ctx) => {
          const body = checked<{ title: string; created_by?: string }>(CreatePageBody, { title: o.title, created_by: o.createdBy });
          return createTopLevelPage(ctx, parseIdParam(o.workspace, 'workspace_id'), {
            ...body,
            created_by: body.created_by === undefined ? undefined : parseIdParam(body.created_by, 'created_by'),
          });
        },
        (view) => presentPage(view, { baseUrl: loadConfig().publicUrl }),
      ),
    );
  paged(admin.command('list-grants').description('list what is shared with a connection').requiredOption('--connection <id>')).action(
    (o: { connection: string; pageSize?: string; startCursor?: string }) =>
      withStore(
        (ctx) => listGrantsOf(ctx, parseIdParam(o.connection, 'connection_id'), listOptions(o)),
        (list) => presentAdminList(list, presentGrant),
      ),
  );
  admin
    .command('grant')
    .description('share an object (and everything under it) with a connection')
    .requiredOption('--connection <id>')
    .requiredOption('--object <id>')
    .action((o: { connection: string; object: string }) => {
      const grant = { connection_id: parseIdParam(o.connection, 'connection_id'), object_id: parseIdParam(o.object, 'object_id') };
      return withStore(
        (ctx) => grantAccess(ctx, grant.connection_id, grant.object_id),
        () => presentGrant(grant),
      );
    });
  admin
    .command('revoke-grant')
    .description('stop sharing an object with a connection')
    .requiredOption('--connection <id>')
    .requiredOption('--object <id>')
    .action((o: { connection: string; object: string }) => {
      const grant = { connection_id: parseIdParam(o.connection, 'connection_id'), object_id: parseIdParam(o.object, 'object_id') };
      return withStore(
        (ctx) => revokeAccess(ctx, grant.connection_id, grant.object_id),
        () => ({ ...presentGrant(grant), deleted: true }),
      );
    });
}
