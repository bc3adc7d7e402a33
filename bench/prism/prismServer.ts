import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { freePort, REPO_ROOT, spawnServer, type ServerProcess } from '../lib/processes.js';

/** The newest Prism that runs on Node 20, the Node Folio targets. */
export const PRISM_VERSION = '5.14.2';
/** Gitignored (.bench/): Prism is large and only this suite needs it, so it stays out of package.json. */
const PRISM_DIR = path.join(REPO_ROOT, '.bench', 'prism');
const PRISM_CLI = path.join(PRISM_DIR, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

/** The service's published OpenAPI document, as the MCP server package ships it. */
export const OPENAPI_DOCUMENT = path.join(REPO_ROOT, 'node_modules', '@notionhq', 'notion-mcp-server', 'scripts', 'notion-openapi.json');

function installedVersion(): string | null {
  try {
    return (createRequire(PRISM_CLI)('../package.json') as { version: string }).version;
  } catch {
    return null;
  }
}

/** Installs Prism into .bench/prism on first use (or when another version is there). */
export async function ensurePrism(log: (line: string) => void): Promise<void> {
  if (installedVersion() === PRISM_VERSION) return;
  log(`installing @stoplight/prism-cli@${PRISM_VERSION} into ${path.relative(REPO_ROOT, PRISM_DIR)} (once)`);
  fs.mkdirSync(PRISM_DIR, { recursive: true });
  const child = spawn('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', PRISM_DIR, `@stoplight/prism-cli@${PRISM_VERSION}`], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0 || installedVersion() !== PRISM_VERSION) throw new Error(`installing @stoplight/prism-cli@${PRISM_VERSION} failed (exit ${code})`);
}

export interface PrismServer extends ServerProcess {
  /** The command as a reader would type it, for the record. */
  command: string;
}

/** `prism mock` with its defaults (static examples, request validation on) on the published document. */
export async function startPrism(token: string): Promise<PrismServer> {
  const port = await freePort();
  const args = [PRISM_CLI, 'mock', '--host', '127.0.0.1', '--port', String(port), OPENAPI_DOCUMENT];
  const server = await spawnServer({
    name: 'prism',
    args,
    env: process.env,
    port,
    // Every operation of the document requires a bearer token, so an unauthorised probe is a 401.
    readyPath: '/v1/users/me',
    readyHeaders: { authorization: `Bearer ${token}` },
    timeoutMs: 120_000,
  });
  const command = `.bench/prism/node_modules/.bin/prism mock --host 127.0.0.1 --port ${port} ${path.relative(REPO_ROOT, OPENAPI_DOCUMENT)}`;
  return { ...server, command };
}
