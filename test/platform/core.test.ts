/**
 * The core runs commands without the HTTP server (a worker process, issue 14, needs exactly
 * this): built in a child process whose module loader refuses Fastify, it opens the store that
 * DATABASE_URL picks and runs a command on it.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './childServer.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-core-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

// A resolve hook that fails any import of fastify or its plugins, wherever in the graph it is.
const refuseFastify = path.join(dir, 'refuseFastify.mjs');
fs.writeFileSync(
  refuseFastify,
  `export async function resolve(specifier, context, nextResolve) {
  if (/^(fastify|@fastify\\/)/.test(specifier)) throw new Error('fastify imported by ' + context.parentURL);
  return nextResolve(specifier, context);
}
`,
);
const register = path.join(dir, 'register.mjs');
fs.writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(refuseFastify).href)});\n`);

const src = (file: string) => JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'src', file)).href);

/** Runs an ES module in a child process (tsx, then the refusing hook) and returns its outcome. */
function runWithoutFastify(source: string) {
  const script = path.join(dir, `script-${Math.random().toString(36).slice(2)}.mjs`);
  fs.writeFileSync(script, source);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, FOLIO_DATA_DIR: path.join(dir, 'data'), FOLIO_LOG_LEVEL: 'silent' };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  return spawnSync(process.execPath, ['--import', 'tsx', '--import', pathToFileURL(register).href, script], {
    cwd: REPO_ROOT,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

test('the loader hook does refuse Fastify (the server cannot load under it)', () => {
  const run = runWithoutFastify(`await import(${src('server.ts')});\n`);
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /fastify imported by/);
});

test('createCore opens the store and runs a command without Fastify in the module graph', () => {
  const run = runWithoutFastify(`
import { loadConfig } from ${src('config.ts')};
import { createCore } from ${src('core.ts')};
import { createWorkspace } from ${src('commands/admin/workspaces.ts')};
const core = await createCore(loadConfig());
try {
  const workspace = await createWorkspace(core, { name: 'Core only' });
  const stored = await core.store.db.selectFrom('workspaces').select(['id', 'name']).where('id', '=', String(workspace.id)).executeTakeFirst();
  const at = core.clock.now();
  process.stdout.write(JSON.stringify({ workspace, stored, id: core.newId(), clockIsDate: at instanceof Date, dialect: core.store.dialect.name }));
} finally {
  await core.close();
}
`);
  assert.equal(run.status, 0, run.stderr);
  const out = JSON.parse(run.stdout) as {
    workspace: { id: string; name: string };
    stored: { id: string; name: string };
    id: string;
    clockIsDate: boolean;
    dialect: string;
  };
  assert.equal(out.workspace.name, 'Core only');
  assert.deepEqual(out.stored, { id: out.workspace.id, name: 'Core only' });
  assert.match(out.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.equal(out.clockIsDate, true);
  assert.equal(out.dialect, process.env.DATABASE_URL ? 'postgres' : 'sqlite');
});
