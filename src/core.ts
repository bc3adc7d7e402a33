import type { AppContext } from './context.js';
import type { Config } from './config.js';
import { FixableClock, systemClock } from './clock.js';
import { createLogger } from './logger.js';
import { newId } from './ids/ids.js';
import { createStore } from './storage/createStore.js';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { ffmpegPath } from './processing/media/ffmpegPath.js';
import { createFileStore } from './storage/files/createFileStore.js';
import { ensureSetting } from './storage/repositories/settings.js';
import { HostedFileLinks } from './domain/files/hostedFiles.js';
import { backfillValueColumns } from './domain/properties/backfillValueColumns.js';
import { backfillMeetingNoteValues } from './domain/meetingNotes/backfillMeetingNoteValues.js';
import { LocalJobBell } from './jobs/jobBell.js';
import { processWakeChannel } from './jobs/processWakeChannel.js';
import { createTranscriber } from './processing/transcription/createTranscriber.js';
import { createSummarizer } from './processing/summary/createSummarizer.js';
import { FaultTable } from './instruments/faults.js';
import { RequestLog } from './instruments/requestLog.js';
import { AnswerCache } from './storage/answerCache.js';
import { Metrics } from './instruments/metrics.js';
import { countPendingJobs } from './storage/repositories/jobs.js';
import { settleViewQueries } from './commands/databaseViews/viewQueries.js';

/**
 * The application without a transport: what the HTTP server, the CLI and a worker process
 * (issue 14) all run commands on. Nothing here may import Fastify (test/platform/core.test.ts).
 */
export interface Core extends AppContext {
  /** Closes the store; the core is unusable afterwards. */
  close(): Promise<void>;
}

/** Opens the store (running its migrations) and assembles the context commands run on. */
export async function createCore(config: Config): Promise<Core> {
  const store = await createStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.pgPoolSize,
    callerCacheMs: config.callerCacheMs,
    sqliteMemory: config.sqliteMemory,
    // Several processes on one SQLite file commit each transaction: a group holds the file's write lock for a turn.
    groupCommits: config.processes === 1,
  });
  // Values written under older column rules get the current ones before any query reads them.
  await backfillValueColumns(store);
  await backfillMeetingNoteValues(store);
  const files = await createFileStore(store, { dataDir: config.dataDir, s3: config.s3 });
  // One secret per store, so a link signed by one instance is served by any other.
  const linkSecret = await ensureSetting(store.db, 'file_link_secret', randomBytes(32).toString('base64url'));
  const log = createLogger(config.logLevel);
  // PostgreSQL reaches every process and instance on the database; SQLite's processes are one
  // server's, reached through its primary.
  const jobs = new LocalJobBell(store.wakeChannel ?? processWakeChannel(), (error) =>
    log.warn({ err: error }, 'job wake-ups from other processes are off until the store is reachable: their jobs wait for the poll'),
  );
  const answers = new AnswerCache(store.writeStamp, config.queryCacheBytes);
  return {
    config,
    store,
    files,
    fileLinks: new HostedFileLinks(linkSecret),
    jobs,
    meetingNotes: {
      transcriber: createTranscriber(config.transcription),
      summarizer: createSummarizer(config.summary),
      maxSeconds: config.meetingNotesMaxSeconds,
      workDir: tmpdir(),
      ffmpeg: ffmpegPath(config.ffmpegPath),
    },
    clock: config.testClock ? new FixableClock() : systemClock,
    newId,
    log,
    instruments: {
      faults: new FaultTable(),
      requests: new RequestLog(config.requestLogSize),
      metrics: new Metrics(
        { jobDepth: () => countPendingJobs(store.db), pool: () => store.poolStats(), commits: () => store.commitStats(), answers: () => answers.stats },
        config.metrics,
      ),
    },
    answers,
    seed: null,
    close: async () => {
      // A view query answered but still keeping its result reads the store until it is kept.
      await settleViewQueries();
      await jobs.close();
      await files.close();
      await store.close();
    },
  };
}
