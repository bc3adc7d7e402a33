/**
 * Folio as a separate process (`folio serve`, compiled: test/helpers/compiledCli.ts), for tests that kill or signal the
 * server. Configuration goes through the environment exactly as an operator's would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/packageInfo.js';
import { compiledCli } from '../helpers/compiledCli.js';

// The checkout's root, found from package.json: the tests run compiled, from .test-dist/test/.
export const REPO_ROOT = PACKAGE_ROOT;

/**
 * A port that was free a moment ago. Only a guess: between closing the probe and a child's listen,
 * another test file running at the same time (.ci/run) may take it, so startChildServer checks
 * which server answers and starts again on another port.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface ChildServer {
  url: string;
  port: number;
  dataDir: string;
  /**
   * This child's admin token: options.env.FOLIO_ADMIN_TOKEN when given, the one the server
   * generated into its data dir when that is '', otherwise a random one of its own. Restarting on
   * the same data dir with `env: { FOLIO_ADMIN_TOKEN: child.adminToken }` keeps it.
   */
  adminToken: string;
  process: ChildProcess;
  /** Everything the process wrote to stdout. */
  stdout(): string;
  /** Everything the process wrote to stderr, for failure messages. */
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
}

export interface ChildOptions {
  /** A fixed port (a restart on the same address). Without it a free one is picked, and picked again if taken meanwhile. */
  port?: number;
  dataDir?: string;
  env?: Record<string, string>;
  /** More arguments after `serve` (`--seed FILE`). */
  args?: string[];
  /** How long it may take to answer /healthz (default 60 s: a loaded CI machine starts processes slowly; longer for several started side by side). */
  readyMs?: number;
}

/** How often a child that lost its picked port to another process is started again on another. */
const PORT_ATTEMPTS = 5;

/**
 * Spawns `folio serve` and waits until it answers as itself: an admin request with this child's own
 * admin token. A bare GET /healthz is not enough, since with test files running side by side the
 * port may belong to another file's child (or any server), which would answer it just as well.
 */
export async function startChildServer(options: ChildOptions = {}): Promise<ChildServer> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'folio-child-'));
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    try {
      return await startOnPort(port, dataDir, options);
    } catch (error) {
      if (!(error instanceof PortTakenError) || options.port !== undefined || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}

/** The child could not listen: another process holds the port. */
class PortTakenError extends Error {}

async function startOnPort(port: number, dataDir: string, options: ChildOptions): Promise<ChildServer> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    FOLIO_PORT: String(port),
    FOLIO_HOST: '127.0.0.1',
    FOLIO_DATA_DIR: dataDir,
    // Its own, so that no other server can answer the readiness check below.
    FOLIO_ADMIN_TOKEN: `child-admin-${randomBytes(12).toString('hex')}`,
    FOLIO_RATE_LIMIT: 'off',
    FOLIO_LOG_LEVEL: 'warn',
    // Off, as in test/helpers/server.ts: a first request's module load on a loaded machine is no overload.
    FOLIO_MAX_EVENT_LOOP_DELAY_MS: '0',
    // One process, as before FOLIO_PROCESSES defaulted to one per core; test/processes/ asks for more.
    FOLIO_PROCESSES: '1',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...options.env,
  };
  // An empty value removes a variable (e.g. FOLIO_ADMIN_TOKEN: '' to let the server generate one).
  for (const [key, value] of Object.entries(env)) if (value === '') delete env[key];
  // Without FOLIO_ADMIN_TOKEN the server keeps a generated one in its data dir (src/adminToken.ts).
  const adminToken = (): string | null => {
    if (env.FOLIO_ADMIN_TOKEN) return env.FOLIO_ADMIN_TOKEN;
    try {
      return fs.readFileSync(path.join(env.FOLIO_DATA_DIR ?? dataDir, 'admin-token'), 'utf8').trim() || null;
    } catch {
      return null;
    }
  };
  const child = spawn(process.execPath, [await compiledCli(), 'serve', ...(options.args ?? [])], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const url = `http://127.0.0.1:${port}`;
  const readyMs = options.readyMs ?? 60_000;
  const deadline = Date.now() + readyMs;
  let ended: number | string | null = null;
  void exited.then((how) => {
    ended = how;
  });
  // What answered on the port so far, for the failure message when it was not this child.
  let answered = 'nothing';
  for (;;) {
    if (ended !== null) {
      if (/EADDRINUSE/.test(stderr))
        throw new PortTakenError(`folio serve exited (${ended}): port ${port} is taken by another process (EADDRINUSE):\n${stderr}`);
      throw new Error(`folio serve exited (${ended}) before it was healthy:\n${stderr}`);
    }
    const token = adminToken();
    if (token) {
      try {
        // Any admin read will do; the faults list is in memory and cheap.
        const res = await fetch(`${url}/admin/v1/faults`, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        if (res.ok) break;
        answered = `${res.status} to an admin request with this child's token`;
      } catch {
        // not listening yet
      }
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`folio serve was not healthy within ${readyMs / 1000} s (port ${port} answered ${answered}):\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, port, dataDir, adminToken: adminToken()!, process: child, stdout: () => stdout, stderr: () => stderr, exited };
}

/**
 * One POST on a connection of its own (no keep-alive), so a killed server fails exactly the
 * requests that were in flight and none of a later process's.
 */
export function postJson(url: string, token: string, body: unknown): Promise<{ status: number; body: any }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          try {
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) });
          } catch (error) {
            reject(error);
          }
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

export interface ChildWorker {
  process: ChildProcess;
  stderr(): string;
  exited: Promise<number | string>;
}

/** Spawns `folio worker` on the store the environment names and waits until it says it started. */
export async function startChildWorker(options: { dataDir: string; env?: Record<string, string> }): Promise<ChildWorker> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    FOLIO_DATA_DIR: options.dataDir,
    FOLIO_LOG_LEVEL: 'info',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...options.env,
  };
  const child = spawn(process.execPath, [await compiledCli(), 'worker'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: string) => {
    output += chunk;
  };
  child.stdout!.setEncoding('utf8').on('data', collect);
  child.stderr!.setEncoding('utf8').on('data', collect);
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const deadline = Date.now() + 30_000;
  while (!output.includes('job worker started')) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`folio worker exited before it started:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`folio worker did not start within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { process: child, stderr: () => output, exited };
}
