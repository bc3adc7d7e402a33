import { fork, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { open, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMeetingLanguage, languageName, whisperLanguage } from './languageCodes.js';
import { tidySegments } from './tidySegments.js';
import { TranscriptionUnavailable, type Readiness, type TranscribeOptions, type Transcriber, type Transcript } from './transcriber.js';
import type { WhisperReply, WhisperRequest } from './whisperProcess.js';

export interface WhisperSettings {
  /** A whisper.cpp ggml model file (FOLIO_WHISPER_MODEL); null: not configured. */
  modelPath: string | null;
  /** CPU threads whisper.cpp uses. */
  threads: number;
  /** The model is unloaded (its process ended) after this long without a job. */
  idleMs?: number;
}

/** whisper.cpp's legacy model magic 0x67676d6c, as the little-endian uint32 the converters write. */
const GGML_MAGIC = Buffer.from('lmgg', 'latin1');
const GGUF_MAGIC = Buffer.from('GGUF', 'latin1');

/** The child's entry: the .ts source under tsx (tests, dev), the compiled .js in dist. */
const CHILD = fileURLToPath(new URL(`./whisperProcess${extname(fileURLToPath(import.meta.url))}`, import.meta.url));

interface FileIdentity {
  path: string;
  size: number;
  mtimeMs: number;
}

/**
 * The `whisper` engine: whisper.cpp through @napi-rs/whisper, with a model the operator provides.
 * All meeting languages, with the hint passed on (or detected for `auto`).
 *
 * whisper.cpp runs in one long-lived child process (whisperProcess.ts) that loads the model on the
 * first job and keeps it for the next; jobs take turns. Aborting a job kills the child, which is
 * started again, and the model loaded again, for the next.
 */
export class WhisperTranscriber implements Transcriber {
  readonly name = 'whisper';
  private child: ChildProcess | null = null;
  private stderr = '';
  private idleTimer: NodeJS.Timeout | null = null;
  /** Turns: one recording at a time goes through the child. */
  private queue: Promise<void> = Promise.resolve();
  /** The last model that failed to load, so readiness reports it until the file changes. */
  private loadFailure: (FileIdentity & { reason: string }) | null = null;

  constructor(private readonly settings: WhisperSettings) {}

  async readiness(): Promise<Readiness> {
    const checked = await this.checkModel();
    return 'reason' in checked ? { ready: false, reason: checked.reason } : { ready: true };
  }

  refuseLanguage(language: string): string | null {
    if (isMeetingLanguage(language)) return null;
    return `the whisper engine does not take the language hint "${language}" (${languageName(language)}); use auto or one of the listed languages`;
  }

  async transcribe(wavPath: string, options: TranscribeOptions): Promise<Transcript> {
    const refusal = this.refuseLanguage(options.language);
    if (refusal) throw new TranscriptionUnavailable(refusal);
    // Jobs take turns on the one child; one aborted while waiting leaves at once, but the next still waits for the running one.
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    try {
      await untilSettledOrAborted(previous, options.signal);
      return await this.run(wavPath, options);
    } finally {
      void previous.then(release);
    }
  }

  private async run(wavPath: string, options: TranscribeOptions): Promise<Transcript> {
    options.signal?.throwIfAborted();
    const model = await this.checkModel();
    if ('reason' in model) throw new TranscriptionUnavailable(model.reason);
    const request: WhisperRequest = { modelPath: model.path, wavPath, language: whisperLanguage(options.language), threads: this.settings.threads };
    const reply = await this.ask(request, model, options.signal);
    return {
      engine: this.name,
      language: options.language === 'auto' ? reply.language : options.language,
      segments: tidySegments(reply.segments, options.durationSeconds),
    };
  }

  /** Sends one request to the child (started if need be) and waits for its answer, its death, or the abort. */
  private ask(request: WhisperRequest, model: FileIdentity, signal?: AbortSignal): Promise<Extract<WhisperReply, { type: 'done' }>> {
    const child = this.ensureChild();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    child.ref();
    child.channel?.ref();
    (child.stderr as Socket).ref();
    let loading = true;
    return new Promise<Extract<WhisperReply, { type: 'done' }>>((resolve, reject) => {
      const finish = () => {
        child.off('message', onMessage);
        child.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (this.child === child) this.idle(child);
      };
      const onMessage = (message: WhisperReply) => {
        if (message.type === 'loaded') {
          loading = false;
          return;
        }
        finish();
        if (message.type === 'done') return resolve(message);
        if (message.type === 'load_failed') return reject(this.failedToLoad(model, message.message));
        reject(new Error(`whisper.cpp failed: ${message.message}`));
      };
      const onExit = (code: number | null, killSignal: NodeJS.Signals | null) => {
        finish();
        if (signal?.aborted) return reject(signal.reason);
        const how = `${killSignal ?? `status ${code}`}${this.lastError()}`;
        // A model that kills its process on loading will do so again; a crash while transcribing (memory) may not.
        reject(loading ? this.failedToLoad(model, `whisper.cpp stopped (${how})`) : new Error(`whisper.cpp stopped while transcribing (${how})`));
      };
      const onAbort = () => child.kill('SIGKILL');
      child.on('message', onMessage);
      child.once('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      child.send(request);
    });
  }

  private ensureChild(): ChildProcess {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) return this.child;
    this.stderr = '';
    // execArgv is passed on, so under tsx (tests, dev) the child loads its .ts source too.
    // Not --inspect: the child would fight the parent for its debugger port.
    const execArgv = process.execArgv.filter((arg) => !arg.startsWith('--inspect'));
    const child = fork(CHILD, [], { execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      this.stderr = (this.stderr + text).slice(-4096);
    });
    child.once('exit', () => {
      if (this.child === child) this.child = null;
    });
    child.on('error', () => undefined); // A failed send surfaces as the exit.
    this.child = child;
    return child;
  }

  /** Between jobs the child (its process, IPC channel and stderr pipe) must not keep the server process alive, and it ends after a while to give its memory back. */
  private idle(child: ChildProcess): void {
    child.unref();
    child.channel?.unref();
    (child.stderr as Socket).unref();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => child.kill(), this.settings.idleMs ?? 10 * 60_000);
    this.idleTimer.unref();
  }

  private failedToLoad(model: FileIdentity, detail: string): TranscriptionUnavailable {
    const reason = `the whisper model ${model.path} could not be loaded (${detail}); is it a complete whisper.cpp ggml model?`;
    this.loadFailure = { ...model, reason };
    return new TranscriptionUnavailable(reason);
  }

  private lastError(): string {
    const line = this.stderr.trim().split('\n').filter(Boolean).pop();
    return line ? `: ${line.slice(0, 300)}` : '';
  }

  /** The model file as far as can be told without loading it: there, readable, a ggml model, not one that failed before. */
  private async checkModel(): Promise<FileIdentity | { reason: string }> {
    const path = this.settings.modelPath;
    if (!path) return { reason: 'no whisper model is configured; set FOLIO_WHISPER_MODEL to a whisper.cpp ggml model file such as ggml-base.bin' };
    let identity: FileIdentity;
    const magic = Buffer.alloc(4);
    try {
      const info = await stat(path);
      if (!info.isFile()) return { reason: `the whisper model ${path} is not a file` };
      identity = { path, size: info.size, mtimeMs: info.mtimeMs };
      const file = await open(path, 'r');
      try {
        await file.read(magic, 0, 4, 0);
      } finally {
        await file.close();
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { reason: `the whisper model ${path} does not exist` };
      if (code === 'EACCES' || code === 'EPERM') return { reason: `the whisper model ${path} cannot be read (permission denied)` };
      return { reason: `the whisper model ${path} cannot be read (${(error as Error).message})` };
    }
    if (magic.equals(GGUF_MAGIC)) return { reason: `the whisper model ${path} is a GGUF file; whisper.cpp needs a ggml model (ggml-*.bin)` };
    if (!magic.equals(GGML_MAGIC)) return { reason: `the whisper model ${path} is not a whisper.cpp ggml model (it does not start with the ggml magic bytes)` };
    const failed = this.loadFailure;
    if (failed && failed.path === path && failed.size === identity.size && failed.mtimeMs === identity.mtimeMs) return { reason: failed.reason };
    return identity;
  }
}

/** Threads for whisper.cpp: the configured parallelism, never more than the machine has. */
export function whisperThreads(parallelism: number): number {
  return Math.max(1, Math.min(parallelism, availableParallelism()));
}

function untilSettledOrAborted(turn: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return turn;
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void turn.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
