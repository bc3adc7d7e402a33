import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../src/packageInfo.js';

const BUILD = '.test-dist';
let built: Promise<string> | null = null;

/**
 * The compiled `folio` CLI, as operators run it, for tests that start it as a process: built into
 * a directory of the tests' own (scripts/buildServer.mjs; at most once per test process, and only
 * when a source is newer than the build). Under tsx every such process compiled and loaded the
 * sources again: about twice the CPU of the compiled CLI, and over a hundred starts a suite.
 */
export function compiledCli(): Promise<string> {
  built ??= promisify(execFile)(process.execPath, [path.join(PACKAGE_ROOT, 'scripts', 'buildServer.mjs'), '--out', BUILD, '--project', 'tsconfig.test.json'], {
    cwd: PACKAGE_ROOT,
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    () => path.join(PACKAGE_ROOT, BUILD, 'src', 'cli.js'),
    (error: Error & { stdout?: string; stderr?: string }) => {
      throw new Error(`building the CLI for the tests failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    },
  );
  return built;
}
