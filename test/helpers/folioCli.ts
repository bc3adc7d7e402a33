import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { REPO_ROOT } from '../platform/childServer.js';
import type { TestServer } from './server.js';
import { compiledCli } from './compiledCli.js';

type Json = Record<string, any>;

/**
 * `folio …` as an operator runs it (compiled: compiledCli.ts): a child process on the store `server` uses
 * (its data dir, and DATABASE_URL when the suite runs on PostgreSQL).
 */
export function folioCli(server: () => TestServer) {
  const folio = async (...args: string[]) => {
    const cli = await compiledCli();
    return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, FOLIO_DATA_DIR: server().dataDir };
      if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
      execFile(process.execPath, [cli, ...args], { cwd: REPO_ROOT, env }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  };
  const json = async (...args: string[]): Promise<Json> => {
    const run = await folio(...args);
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout);
  };
  return { folio, json };
}
