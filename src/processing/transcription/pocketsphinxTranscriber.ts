import { createReadStream, createWriteStream } from 'node:fs';
import { access, constants, mkdtemp, realpath, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { findExecutable } from '../findExecutable.js';
import { runCommand } from '../runCommand.js';
import { readSpeechWavLayout, speechWavHeader, type WavLayout } from '../media/wavFile.js';
import { splitAtPauses, type WavChunk } from '../media/splitAtPauses.js';
import { groupWords, type TimedWord } from './groupWords.js';
import { languageName } from './languageCodes.js';
import { tidySegments } from './tidySegments.js';
import { TranscriptionUnavailable, type Readiness, type TranscribeOptions, type Transcriber, type Transcript } from './transcriber.js';

export interface PocketsphinxSettings {
  /** The `pocketsphinx_continuous` binary; null: found on PATH. */
  binaryPath: string | null;
  /** Where the binary is looked for when binaryPath is null (PATH). */
  searchPath: string;
  /** How many recognisers run at once on one recording. */
  parallelism: number;
}

const BINARY = 'pocketsphinx_continuous';
const INSTALL = '`apt-get install pocketsphinx pocketsphinx-en-us`';

/**
 * A recogniser takes ~0.8 s to load its model; below this many seconds per chunk, splitting saves
 * less than it costs. Splitting pays on longer recordings: decode + transcribe of a 5-minute m4a
 * took 0.22–0.24× real time with one process and 0.11–0.13× with two halves on 2 cores (measured
 * here, 2026-11-23; pocketsphinx is single-threaded).
 */
const MIN_SECONDS_PER_PROCESS = 30;

/** Filler tokens of the CMU dictionary and decoder: sentence marks, silence, noise (`[NOISE]`, `++UH++`). */
const FILLER = /^(<.*>|\[.*\]|\+\+.*\+\+)$/;

/** `word start end probability`, times in seconds from the start of the input; `word(2)` is an alternate pronunciation. */
const WORD_LINE = /^(\S+) (\d+\.\d+) (\d+\.\d+) (-?\d+(?:\.\d+)?)$/;

interface Installation {
  binary: string;
  modelDir: string;
}

/**
 * The `local` engine: CMU Sphinx as Debian packages it, English only, no model to download.
 * Rough (about 30–40% of the words of synthetic speech are missed or wrong) but needs nothing
 * beyond two apt packages, so meeting notes work out of the box.
 */
export class PocketsphinxTranscriber implements Transcriber {
  readonly name = 'local';

  constructor(private readonly settings: PocketsphinxSettings) {}

  async readiness(): Promise<Readiness> {
    const found = await this.locate();
    return 'reason' in found ? { ready: false, reason: found.reason } : { ready: true };
  }

  refuseLanguage(language: string): string | null {
    if (language === 'auto' || language === 'en') return null;
    return `the local engine transcribes English only; to transcribe ${languageName(language)}, configure the whisper or openai engine (FOLIO_TRANSCRIBER)`;
  }

  async transcribe(wavPath: string, options: TranscribeOptions): Promise<Transcript> {
    const refusal = this.refuseLanguage(options.language);
    if (refusal) throw new TranscriptionUnavailable(refusal);
    const found = await this.locate();
    if ('reason' in found) throw new TranscriptionUnavailable(found.reason);

    const layout = await readSpeechWavLayout(wavPath);
    const parts = Math.max(1, Math.min(this.settings.parallelism, Math.floor(layout.durationSeconds / MIN_SECONDS_PER_PROCESS)));
    const chunks = await splitAtPauses(wavPath, layout, parts);

    // One failed chunk ends the others: their words would be thrown away anyway.
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    // The recogniser reads a 44-byte header itself (continuous.c check_wav_header); any other layout, or a part, gets a copy.
    const direct = chunks.length === 1 && layout.dataOffset === 44 && wavPath.endsWith('.wav');
    // Beside the recording: the caller's per-job directory, so whatever cleans that up also takes these after a crash.
    const work = direct ? null : await mkdtemp(join(dirname(wavPath), 'pocketsphinx-'));
    let settled: PromiseSettledResult<TimedWord[]>[];
    try {
      // allSettled, not all: every recogniser has exited and every copy is closed before the directory goes.
      settled = await Promise.allSettled(
        chunks.map(async (chunk, i) => {
          try {
            const input = work ? await writeChunk(wavPath, layout, chunk, join(work, `chunk-${i}.wav`), signal) : wavPath;
            return parseWords(await this.recognise(found, input, signal), chunk.startSeconds);
          } catch (error) {
            stop.abort(error);
            throw error;
          }
        }),
      );
    } finally {
      if (work) await rm(work, { recursive: true, force: true });
    }
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) {
      // An abort from the caller wins over the errors it caused in the other chunks.
      throw options.signal?.aborted ? options.signal.reason : failed.reason;
    }
    const words = settled.flatMap((result) => (result.status === 'fulfilled' ? result.value : []));

    const segments = tidySegments(groupWords(words), options.durationSeconds || layout.durationSeconds);
    return { engine: this.name, language: 'en', segments };
  }

  /** Runs one recogniser on a 16 kHz mono 16-bit wav file; its `-time yes` output. */
  private async recognise(found: Installation, wavPath: string, signal: AbortSignal): Promise<string> {
    const args = [
      ...['-infile', wavPath, '-time', 'yes', '-samprate', '16000'],
      ...['-hmm', join(found.modelDir, 'en-us'), '-lm', join(found.modelDir, 'en-us.lm.bin'), '-dict', join(found.modelDir, 'cmudict-en-us.dict')],
    ];
    const result = await runCommand(found.binary, args, { signal });
    if (result.code !== 0) {
      const lines = result.stderr.trim().split('\n');
      const detail = lines.filter((line) => /ERROR|FATAL/.test(line)).pop() ?? lines.pop();
      throw new Error(`${BINARY} failed (${result.killedBy ?? `status ${result.code}`}): ${detail || 'no message'}`);
    }
    return result.stdout;
  }

  private async locate(): Promise<Installation | { reason: string }> {
    const configured = this.settings.binaryPath;
    const binary = await findExecutable(configured ?? BINARY, this.settings.searchPath);
    if (!binary) {
      return {
        reason: configured
          ? `the pocketsphinx binary FOLIO_POCKETSPHINX=${configured} does not exist or is not executable`
          : `${BINARY} was not found on PATH; install it with ${INSTALL}, or configure another engine (FOLIO_TRANSCRIBER)`,
      };
    }
    // Debian's model sits under the binary's prefix: /usr/bin/… → /usr/share/pocketsphinx/model/en-us.
    const modelDir = join(dirname(dirname(await realpath(binary))), 'share', 'pocketsphinx', 'model', 'en-us');
    try {
      await Promise.all(['en-us/mdef', 'en-us.lm.bin', 'cmudict-en-us.dict'].map((file) => access(join(modelDir, file), constants.R_OK)));
    } catch {
      return { reason: `the English model of pocketsphinx is missing from ${modelDir}; install it with ${INSTALL}` };
    }
    return { binary, modelDir };
  }
}

/** The timed words of `pocketsphinx_continuous -time yes` output, shifted by where the chunk starts. */
export function parseWords(stdout: string, offsetSeconds: number): TimedWord[] {
  const words: TimedWord[] = [];
  for (const line of stdout.split('\n')) {
    const match = WORD_LINE.exec(line.trim());
    if (!match || FILLER.test(match[1])) continue;
    const word = match[1].replace(/\(\d+\)$/, '');
    if (!word) continue;
    words.push({ word, start: offsetSeconds + Number(match[2]), end: offsetSeconds + Number(match[3]) });
  }
  return words;
}

/**
 * Copies a chunk into a wav of its own. Recognisers cannot be fed on stdin instead: Node gives
 * children a socket there, which `-infile /dev/stdin` cannot open (ENXIO).
 */
async function writeChunk(wavPath: string, layout: WavLayout, chunk: WavChunk, chunkPath: string, signal: AbortSignal): Promise<string> {
  const samples = createReadStream(wavPath, { start: layout.dataOffset + chunk.startByte, end: layout.dataOffset + chunk.endByte - 1 });
  await pipeline(
    async function* () {
      yield speechWavHeader(chunk.endByte - chunk.startByte);
      yield* samples;
    },
    createWriteStream(chunkPath),
    { signal },
  );
  return chunkPath;
}
