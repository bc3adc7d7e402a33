import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `npm run build`, so the measured server is the compiled one users run, not tsx. */
export async function buildProject(): Promise<void> {
  const child = spawn('npm', ['run', '--silent', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`npm run build failed (exit ${code}); fix it, or pass --no-build to measure the dist/ already there`);
}

/** A port free right now; the server binds it a moment later (Folio refuses FOLIO_PORT=0). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  name: string;
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface SpawnServerOptions {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  port: number;
  /** Path answering 200 once the server is ready. */
  readyPath: string;
  /** Headers of the readiness request, for a server that answers 200 only to an authorised one. */
  readyHeaders?: Record<string, string>;
  timeoutMs?: number;
}

/** Starts `node <args>` and waits until readyPath answers; its output is kept for error messages. */
export async function spawnServer(options: SpawnServerOptions): Promise<ServerProcess> {
  const child = spawn(process.execPath, options.args, { cwd: REPO_ROOT, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.on('exit', (code) => {
      exited = code;
      resolve();
    }),
  );
  // If the runner dies (an error, Ctrl-C), no server is left holding a port.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exit.then(() => process.off('exit', killOnExit));
  const url = `http://127.0.0.1:${options.port}`;
  const stop = async () => {
    if (exited !== undefined) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exit;
    clearTimeout(timer);
  };

  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    if (exited !== undefined) throw new Error(`${options.name} exited (code ${exited}) before it was ready:\n${output}`);
    try {
      const response = await fetch(url + options.readyPath, { headers: options.readyHeaders });
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${options.name} was not ready after ${options.timeoutMs ?? 30_000} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { name: options.name, url, child, stop };
}

/** A fresh temporary directory, removed by `remove()` or, failing that, when the runner exits. */
export function tempDir(prefix: string): { path: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const remove = () => {
    fs.rmSync(dir, { recursive: true, force: true });
    process.off('exit', remove);
  };
  process.once('exit', remove);
  return { path: dir, remove };
}

/** The environment of this process without the variables a server under test must not inherit by accident. */
export function cleanEnv(drop: (name: string) => boolean): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !drop(name)));
}
