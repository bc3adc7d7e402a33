/**
 * Folio as a separate process (`folio serve`, compiled: test/helpers/compiledCli.ts), for tests that kill or signal the
 * server. Configuration goes through the environment exactly as an operator's would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledCli } from '../helpers/compiledCli.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHILD_ADMIN_TOKEN = 'child-admin-token';

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
  process: ChildProcess;
  /** Everything the process wrote to stdout. */
  stdout(): string;
  /** Everything the process wrote to stderr, for failure messages. */
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
}

export interface ChildOptions {
  port?: number;
  dataDir?: string;
  env?: Record<string, string>;
  /** More arguments after `serve` (`--seed FILE`). */
  args?: string[];
  /** How long it may take to answer /healthz (default 60 s: a loaded CI machine starts processes slowly; longer for several started side by side). */
  readyMs?: number;
}

/** Spawns `folio serve` and waits until GET /healthz answers. */
export async function startChildServer(options: ChildOptions = {}): Promise<ChildServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'folio-child-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    FOLIO_PORT: String(port),
    FOLIO_HOST: '127.0.0.1',
    FOLIO_DATA_DIR: dataDir,
    FOLIO_ADMIN_TOKEN: CHILD_ADMIN_TOKEN,
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
  for (;;) {
    if (ended !== null) throw new Error(`folio serve exited (${ended}) before it was healthy:\n${stderr}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`folio serve was not healthy within ${readyMs / 1000} s:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, port, dataDir, process: child, stdout: () => stdout, stderr: () => stderr, exited };
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
