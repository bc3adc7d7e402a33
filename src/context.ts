import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { Store } from './storage/createStore.js';
import type { FileStore } from './storage/files/fileStore.js';
import type { HostedFileLinks } from './domain/files/hostedFiles.js';
import type { Transcriber } from './processing/transcription/transcriber.js';
import type { Summarizer } from './processing/summary/summarizer.js';
import type { FaultTable } from './instruments/faults.js';
import type { RequestLog } from './instruments/requestLog.js';
import type { Metrics } from './instruments/metrics.js';
import type { PreparedImport } from './domain/fixtures/planFixture.js';
import type { AnswerCache } from './storage/answerCache.js';

/** What commands need, from the server or any other process (src/core.ts builds it); passed explicitly, never global. */
export interface AppContext {
  config: Config;
  store: Store;
  /** Where uploaded bytes live (src/storage/files/). */
  files: FileStore;
  /** Signs and checks the links hosted files are read through. */
  fileLinks: HostedFileLinks;
  /** The engines meeting notes are processed with (configuration picks them; src/core.ts). */
  meetingNotes: MeetingNotesEngines;
  /** Wakes this process's job workers after an enqueue. */
  jobs: JobBell;
  clock: Clock;
  newId(): string;
  log: Logger;
  /** This instance's emulator controls and measurements (src/instruments/). */
  instruments: Instruments;
  /** Query answers kept while nothing is written (src/storage/answerCache.ts). */
  answers: AnswerCache;
  /** The fixture the server started with (FOLIO_SEED), planned once: what a reset to `seed` writes. */
  seed: PreparedImport | null;
}

/** Kept in this process's memory: each instance of a deployment has its own. */
export interface Instruments {
  faults: FaultTable;
  requests: RequestLog;
  metrics: Metrics;
}

/**
 * Rings the job workers of this process and of the others on the store (src/jobs/jobBell.ts);
 * jobs enqueued where no signal reaches are found by polling.
 */
export interface JobBell {
  /** Called after a transaction that enqueued a job committed. */
  wake(): void;
  /** Calls `listener` on every wake, here or in another process, until the returned function is called. */
  listen(listener: () => void): () => void;
  /** Stops listening to the other processes. */
  close(): Promise<void>;
}

/** What processing runs on, chosen by configuration (src/core.ts builds them). */
export interface MeetingNotesEngines {
  transcriber: Transcriber;
  summarizer: Summarizer;
  /** Longest recording processed (FOLIO_MEETING_NOTES_MAX_SECONDS). */
  maxSeconds: number;
  /** Where recordings are decoded; each job has its own directory, removed when it ends. */
  workDir: string;
  /** The ffmpeg binary that decodes them (FOLIO_FFMPEG, else the packaged build). */
  ffmpeg: string;
}
