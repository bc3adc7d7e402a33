import { spawn } from 'node:child_process';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';

export interface CommandResult {
  code: number | null;
  /** Set when the process was killed by a signal it did not get from us (OOM killer, crash). */
  killedBy: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Fed to the process's standard input; none when absent. */
  stdin?: Readable;
  /** Which end of stderr to keep past `stderrLimit` bytes: the beginning holds ffmpeg's probe, the end a tool's last error. */
  keepStderr?: 'head' | 'tail';
  stderrLimit?: number;
}

/**
 * Runs a program with an argument array (never through a shell, so file names are inert) and
 * collects its output. On abort the process is killed outright and the promise rejects only once
 * it has exited, so the caller may delete the files it was using.
 */
export function runCommand(command: string, args: readonly string[], options: RunOptions = {}): Promise<CommandResult> {
  const { signal, stdin, keepStderr = 'tail', stderrLimit = 64 * 1024 } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = Buffer.alloc(0);
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => {
      if (keepStderr === 'head') {
        if (stderr.length < stderrLimit) stderr = Buffer.concat([stderr, chunk]).subarray(0, stderrLimit);
      } else {
        stderr = Buffer.concat([stderr, chunk]);
        if (stderr.length > stderrLimit) stderr = stderr.subarray(stderr.length - stderrLimit);
      }
    });
    if (stdin) {
      // A process that exits before reading everything closes the pipe (EPIPE): its exit status tells what happened.
      pipeline(stdin, child.stdin!).catch(() => undefined);
    }

    child.once('error', (error: NodeJS.ErrnoException) => {
      signal?.removeEventListener('abort', onAbort);
      if (stdin) stdin.destroy();
      reject(error.code === 'ENOENT' ? new Error(`${command} was not found`) : error);
    });
    child.once('close', (code, killSignal) => {
      signal?.removeEventListener('abort', onAbort);
      if (aborted) return reject(signal!.reason);
      resolve({ code, killedBy: killSignal, stdout: Buffer.concat(stdout).toString('utf8'), stderr: stderr.toString('utf8') });
    });
  });
}
