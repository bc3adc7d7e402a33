#!/usr/bin/env node
import { Command } from 'commander';
import { loadConfig } from './config.js';
import { startFolio } from './start.js';
import { createCore } from './core.js';
import type { AppContext } from './context.js';
import { createWorkspace } from './commands/admin/workspaces.js';
import { createPerson } from './commands/admin/users.js';
import { createConnection, deleteConnection, grantAccess, revokeAccess } from './commands/admin/connections.js';
import { createTopLevelPage } from './commands/admin/pages.js';
import { normalizeId } from './http/ids.js';
import { ApiError } from './errors/registry.js';
import type { ConnectionKind } from './auth/capabilities.js';

const program = new Command('folio').description('Folio: a self-hostable workspace Content API server');

program
  .command('serve')
  .description('start the server (configuration from FOLIO_* environment variables)')
  .option('--host <host>', 'FOLIO_HOST')
  .option('--port <port>', 'FOLIO_PORT')
  .option('--data-dir <dir>', 'FOLIO_DATA_DIR')
  .action(async (options: { host?: string; port?: string; dataDir?: string }) => {
    const env = { ...process.env };
    if (options.host) env.FOLIO_HOST = options.host;
    if (options.port) env.FOLIO_PORT = options.port;
    if (options.dataDir) env.FOLIO_DATA_DIR = options.dataDir;
    const running = await startFolio(loadConfig(env));
    let closing = false;
    const shutdown = (signal: string) => {
      if (closing) return;
      closing = true;
      running.log.info({ signal }, 'shutting down: finishing in-flight requests');
      running.close().then(
        () => process.exit(0),
        (error: unknown) => {
          running.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.on('SIGTERM', () => shutdown('SIGTERM'));
    process.on('SIGINT', () => shutdown('SIGINT'));
  });

/** Admin actions run the same commands as /admin/v1, directly on the configured store. */
async function withStore(action: (ctx: AppContext) => Promise<unknown>): Promise<void> {
  const core = await createCore(loadConfig());
  try {
    const result = await action(core);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof ApiError ? `${error.code}: ${error.message}` : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await core.close();
  }
}

function id(raw: string): string {
  const value = normalizeId(raw);
  if (!value) throw new Error(`not a UUID: ${raw}`);
  return value;
}

const adminCmd = program.command('admin').description('operator actions on the configured store');
adminCmd
  .command('create-workspace')
  .requiredOption('--name <name>')
  .action((o: { name: string }) => withStore((ctx) => createWorkspace(ctx, o)));
adminCmd
  .command('create-user')
  .requiredOption('--workspace <id>')
  .requiredOption('--name <name>')
  .requiredOption('--email <email>')
  .option('--meeting-notes', 'enable AI meeting notes for this user')
  .action((o: { workspace: string; name: string; email: string; meetingNotes?: boolean }) =>
    withStore((ctx) => createPerson(ctx, id(o.workspace), { name: o.name, email: o.email, meeting_notes_enabled: Boolean(o.meetingNotes) })),
  );
adminCmd
  .command('create-connection')
  .requiredOption('--workspace <id>')
  .requiredOption('--name <name>')
  .requiredOption('--kind <kind>', 'internal, public or personal')
  .option('--capabilities <list>', 'comma-separated', 'read_content,update_content,insert_content,user_info_with_email')
  .option('--user <id>', 'the person a public or personal token acts for')
  .action((o: { workspace: string; name: string; kind: string; capabilities: string; user?: string }) =>
    withStore((ctx) =>
      createConnection(ctx, id(o.workspace), {
        name: o.name,
        kind: o.kind as ConnectionKind,
        capabilities: o.capabilities
          .split(',')
          .map((c) => c.trim())
          .filter(Boolean),
        user_id: o.user ? id(o.user) : undefined,
      }),
    ),
  );
adminCmd
  .command('create-page')
  .requiredOption('--workspace <id>')
  .requiredOption('--title <title>')
  .action((o: { workspace: string; title: string }) => withStore((ctx) => createTopLevelPage(ctx, id(o.workspace), { title: o.title })));
adminCmd
  .command('grant')
  .requiredOption('--connection <id>')
  .requiredOption('--object <id>')
  .action((o: { connection: string; object: string }) => withStore((ctx) => grantAccess(ctx, id(o.connection), id(o.object))));
adminCmd
  .command('revoke-grant')
  .requiredOption('--connection <id>')
  .requiredOption('--object <id>')
  .action((o: { connection: string; object: string }) => withStore((ctx) => revokeAccess(ctx, id(o.connection), id(o.object))));
adminCmd
  .command('delete-connection')
  .requiredOption('--connection <id>')
  .action((o: { connection: string }) => withStore((ctx) => deleteConnection(ctx, id(o.connection))));

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
