import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AppContext, MeetingNotesEngines } from '../../context.js';
import type { Db } from '../../storage/db.js';
import type { JobRow, ObjectRow } from '../../storage/schema.js';
import type { BlockInput } from '../../schemas/blocks.js';
import { PermanentJobError, type RunningJob } from '../../domain/jobs.js';
import type { MeetingNotesJobPayload, MeetingNotesProgress } from '../../domain/meetingNotes/meetingNotesJob.js';
import { titleItems } from '../../domain/meetingNotes/meetingNotesBlock.js';
import { notesBlock, summaryBlock, transcriptBlock } from '../../domain/meetingNotes/resultBlocks.js';
import { creditsFor } from '../../domain/credits.js';
import { insertBlockTree } from '../../domain/blocks/insertBlockTree.js';
import { createMentionResolver } from '../../domain/mentionResolver.js';
import { findWorkspace, spendWorkspaceCredits } from '../../storage/repositories/workspaces.js';
import { addCreditsUsed, findConnection } from '../../storage/repositories/connections.js';
import { readHostedFile } from '../fileUploads/readHostedFile.js';
import { readMeetingNotes, setMeetingNotesStatus } from './meetingNotesStatus.js';
import { decodeToWav, MediaRefused } from '../../processing/media/decodeAudio.js';
import { TranscriptionUnavailable } from '../../processing/transcription/transcriber.js';
import { SummaryUnavailable } from '../../processing/summary/summarizer.js';

/** Each job decodes in a directory of its own, named so a later start can find what a killed worker left. */
const WORK_PREFIX = 'folio-meeting-';
/** Longer than any job runs (a 4-hour recording takes under an hour here): older directories are a dead worker's. */
const STALE_AFTER_MS = 6 * 3600_000;

/** Removes the decode directories a worker killed mid-job could not; run when workers start. */
export async function removeStaleWorkDirs(workDir: string, now = Date.now()): Promise<number> {
  let removed = 0;
  for (const name of await readdir(workDir).catch(() => [] as string[])) {
    if (!name.startsWith(WORK_PREFIX)) continue;
    const path = join(workDir, name);
    const info = await stat(path).catch(() => null);
    if (info?.isDirectory() && now - info.mtimeMs > STALE_AFTER_MS) {
      await rm(path, { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}

/** Ends a meeting note whose job failed for good, in the transaction that ends the job (src/jobs/kinds/meetingNotes.ts). */
export async function failMeetingNote(ctx: AppContext, trx: Db, row: JobRow, reason: string): Promise<void> {
  await setMeetingNotesStatus(trx, row.subject_id, 'transcription_failed', { at: ctx.clock.now().toISOString() });
  ctx.log.error({ block: row.subject_id, reason }, 'meeting note processing failed');
}

/** Failures no retry mends: media refused, an engine that cannot run. */
export const isPermanentMeetingNotesFailure = (error: unknown): boolean =>
  error instanceof MediaRefused || error instanceof TranscriptionUnavailable || error instanceof SummaryUnavailable;

/**
 * Decode → transcribe → summarise, each announced by the block's status before it starts and
 * each result written with the job's checkpoint in one transaction (RunningJob.write), so a
 * worker that dies anywhere leaves a job the next one resumes: credits are charged once, the
 * transcript and summary written once.
 */
export async function processMeetingNote(ctx: AppContext, engines: MeetingNotesEngines, job: RunningJob<MeetingNotesJobPayload>): Promise<void> {
  const { payload } = job;
  let progress = JSON.parse(job.row.progress) as MeetingNotesProgress;
  const at = () => ctx.clock.now().toISOString();

  const live = await job.write(async (trx) => {
    const current = await readMeetingNotes(trx, payload.blockId);
    if (!current || current.inTrash || current.member.status === 'notes_ready' || current.member.status === 'transcription_failed') return false;
    await setMeetingNotesStatus(trx, payload.blockId, progress.transcript ? 'summary_in_progress' : 'transcription_in_progress', { at: at() });
    return true;
  });
  if (!live) {
    ctx.log.info({ block: payload.blockId }, 'meeting note deleted, trashed or already ended: nothing to process');
    return;
  }

  if (!progress.transcript) {
    const ready = await engines.transcriber.readiness();
    if (!ready.ready) throw new PermanentJobError(ready.reason);
    const refusal = engines.transcriber.refuseLanguage(payload.language);
    if (refusal) throw new PermanentJobError(refusal);

    const work = await mkdtemp(join(engines.workDir, WORK_PREFIX));
    try {
      const file = await readHostedFile(ctx, payload.uploadId);
      if (!file) throw new PermanentJobError('the recording is no longer available');
      const source = join(work, 'source');
      await pipeline(file.open(), createWriteStream(source), { signal: job.signal });
      const wav = join(work, 'audio.wav');
      const info = await decodeToWav(source, wav, { maxSeconds: engines.maxSeconds, signal: job.signal, ffmpeg: engines.ffmpeg });
      const duration = info.durationSeconds ?? 0;

      if (progress.charged === undefined) {
        progress = { ...progress, charged: creditsFor(duration), durationSeconds: duration };
        const cost = progress.charged!;
        await job.write((trx) => chargeCredits(trx, job.row.workspace_id, payload.connectionId, cost), { progress });
      }

      const transcript = await engines.transcriber.transcribe(wav, { language: payload.language, durationSeconds: duration, signal: job.signal });
      progress = { ...progress, transcript: { engine: transcript.engine, language: transcript.language, segments: transcript.segments } };
      const recording = info.creationTime
        ? { start_time: info.creationTime, end_time: new Date(Date.parse(info.creationTime) + Math.round(duration * 1000)).toISOString() }
        : undefined;
      await job.write(
        async (trx) => {
          const [container] = await writeResults(ctx, trx, payload, [transcriptBlock(transcript.segments)]);
          if (!container) return;
          await setMeetingNotesStatus(trx, payload.blockId, payload.kickoffSummary ? 'summary_in_progress' : 'notes_ready', {
            at: at(),
            patch: { children: { transcript_block_id: container.id }, ...(recording ? { recording } : {}) },
          });
        },
        { progress, finish: !payload.kickoffSummary },
      );
      if (!payload.kickoffSummary) return;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  const ready = await engines.summarizer.readiness();
  if (!ready.ready) throw new PermanentJobError(ready.reason);
  const summary = await engines.summarizer.summarize(
    { segments: progress.transcript!.segments, provisionalTitle: payload.provisionalTitle, language: payload.language },
    job.signal,
  );
  await job.write(
    async (trx) => {
      const current = await readMeetingNotes(trx, payload.blockId);
      const [summaryRow, notesRow] = await writeResults(ctx, trx, payload, [summaryBlock(summary), notesBlock(summary)]);
      if (!current || !summaryRow) return;
      const title = titleItems(summary.title);
      await setMeetingNotesStatus(trx, payload.blockId, 'notes_ready', {
        at: at(),
        patch: {
          ...(title.length > 0 ? { title } : {}),
          children: { ...current.member.children, summary_block_id: summaryRow.id, notes_block_id: notesRow.id },
        },
      });
    },
    { finish: true },
  );
}

/**
 * Charges the recording's credits to the workspace and the connection, or refuses: creation
 * checked that a minute's worth was left, and the real cost is known only now (docs/decisions.md).
 */
async function chargeCredits(trx: Db, workspaceId: string, connectionId: string, cost: number): Promise<void> {
  const workspace = await findWorkspace(trx, workspaceId);
  if (workspace && workspace.ai_credits !== null && workspace.ai_credits < cost) {
    throw new PermanentJobError(`workspace_credits_exhausted: the recording needs ${cost} AI credits and the workspace has ${workspace.ai_credits} left`);
  }
  const connection = await findConnection(trx, connectionId);
  if (connection && connection.ai_credit_limit !== null && connection.ai_credits_used + cost > connection.ai_credit_limit) {
    throw new PermanentJobError(
      `agent_credit_limit_reached: the recording needs ${cost} AI credits and the integration may spend ${connection.ai_credit_limit - connection.ai_credits_used} more`,
    );
  }
  await spendWorkspaceCredits(trx, workspaceId, cost);
  await addCreditsUsed(trx, connectionId, cost);
}

/** Writes result trees under the block, unless it was deleted or trashed meanwhile; the first-level rows, in order. */
async function writeResults(ctx: AppContext, trx: Db, payload: MeetingNotesJobPayload, trees: BlockInput[]): Promise<ObjectRow[]> {
  const current = await readMeetingNotes(trx, payload.blockId);
  if (!current || current.inTrash) return [];
  const workspaceId = current.row.workspace_id;
  const rows = await insertBlockTree(trx, {
    workspaceId,
    parentType: 'block_id',
    parentId: payload.blockId,
    actorId: payload.actorId,
    children: trees,
    at: ctx.clock.now().toISOString(),
    resolver: createMentionResolver(trx, workspaceId, ctx.config.publicUrl, null),
    // No request may add to a meeting note; its results hold what a page may.
    checkAs: { kind: 'page' },
  });
  return rows.filter((row) => row.parent_id === payload.blockId);
}
