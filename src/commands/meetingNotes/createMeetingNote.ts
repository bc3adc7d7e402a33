import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { ObjectRow, WorkspaceRow } from '../../storage/schema.js';
import type { CreateMeetingNoteInput } from '../../schemas/meetingNotes.js';
import type { BlockView, Unreadable } from '../../domain/views.js';
import { restricted, validationError } from '../../errors/registry.js';
import { invalidField, missingField } from '../../errors/validationFailure.js';
import { normalizeId } from '../../ids/ids.js';
import { assertEditable, loadVisibleObject } from '../../auth/access.js';
import { parseContent } from '../../domain/contentShapes.js';
import { hostedUploadId } from '../../domain/files/hostedFiles.js';
import { insertServerBlock } from '../../domain/blocks/insertBlockTree.js';
import { writeMeetingNoteAttendees, writeMeetingNoteTitle } from '../../domain/meetingNotes/meetingNoteValues.js';
import { RECORDING_BLOCK_TYPES } from '../../domain/blocks/blockTypes.js';
import { newMeetingNotesMember, refuseRecordingType } from '../../domain/meetingNotes/meetingNotesBlock.js';
import { MEETING_NOTES_JOB, MEETING_NOTES_MAX_ATTEMPTS, type MeetingNotesJobPayload } from '../../domain/meetingNotes/meetingNotesJob.js';
import { agentCreditLimitReached, creditsFor, workspaceCreditsExhausted } from '../../domain/credits.js';
import { findFileUpload, markAttached } from '../../storage/repositories/fileUploads.js';
import { findWorkspace } from '../../storage/repositories/workspaces.js';
import { findUser } from '../../storage/repositories/users.js';
import { findConnection } from '../../storage/repositories/connections.js';
import { touchPageOf } from '../../storage/repositories/blocks.js';
import { enqueueJob } from '../../storage/repositories/jobs.js';
import { uploadStatusNow } from '../fileUploads/fileUploadView.js';
import { assertContentUnlocked, BLOCK_OBJECTS, loadWrittenBlocks } from '../blocks/loadBlock.js';
import { processingPaused } from './processingPause.js';

/**
 * POST /v1/blocks/meeting_notes: writes the meeting notes block where the spec puts it (at the
 * end of the parent page, or right after the source block) and enqueues its processing, in one
 * transaction: a block exists exactly when its job does. Not idempotent: each call makes a block.
 */
export async function createMeetingNote(ctx: AppContext, caller: Caller, input: CreateMeetingNoteInput): Promise<BlockView | Unreadable> {
  // Said now rather than by a failed job a moment later, where only the admin plane shows why (the
  // spec allows a 400 for a processing option the server cannot honour; docs/decisions.md).
  const language = input.language ?? 'auto';
  const refusal = ctx.meetingNotes.transcriber.refuseLanguage(language);
  if (refusal) throw invalidField(['language'], `should be a language this server's transcription engine takes (${refusal})`, language);
  const created = await ctx.store.transaction(async (trx) => {
    const workspace = (await findWorkspace(trx, caller.workspaceId))!;
    await assertEntitled(trx, caller, workspace);
    const now = ctx.clock.now();
    const at = now.toISOString();

    let uploadId: string;
    let place: { parentType: 'page_id' | 'block_id'; parentId: string; position?: { type: 'after_block'; after_block: { id: string } } };
    if (input.source.type === 'file_upload') {
      if (!input.parent) throw missingField(['parent']);
      uploadId = await ownRecording(trx, caller, input.source.file_upload_id, now);
      const rawPage = input.parent.page_id;
      const page = await loadVisibleObject(trx, caller, normalizeId(rawPage) ?? rawPage, ['page'], 'page', rawPage);
      assertEditable(page);
      await assertContentUnlocked(trx, page);
      place = { parentType: 'page_id', parentId: page.id };
    } else {
      if (input.parent !== undefined)
        throw invalidField(['parent'], 'should be omitted when the source is a block (the meeting note goes right after it)', input.parent);
      // Reading the source block is reading content (spec, "Authentication" 3).
      if (!caller.capabilities.has('read_content'))
        throw restricted('Insufficient permissions for this endpoint: using a block as the source needs the read content capability.');
      const source = await loadVisibleObject(
        trx,
        caller,
        normalizeId(input.source.block_id) ?? input.source.block_id,
        BLOCK_OBJECTS,
        'block',
        input.source.block_id,
      );
      uploadId = await recordingOfBlock(trx, source, input.source.block_id, now);
      assertEditable(source);
      await assertContentUnlocked(trx, source);
      if (!source.parent_id || (source.parent_type !== 'page_id' && source.parent_type !== 'block_id')) {
        throw invalidField(['source', 'block_id'], 'should be a block inside a page', input.source.block_id);
      }
      place = { parentType: source.parent_type, parentId: source.parent_id, position: { type: 'after_block', after_block: { id: source.id } } };
    }

    const paused = await processingPaused(trx);
    const member = newMeetingNotesMember(input.title, paused);
    const block = await insertServerBlock(trx, {
      workspaceId: caller.workspaceId,
      ...place,
      actorId: caller.botId,
      type: 'meeting_notes',
      content: { ...member },
      at,
    });
    await writeMeetingNoteTitle(trx, block.id, member.title);
    await writeMeetingNoteAttendees(trx, block.id, caller.userId ? [caller.userId] : []);
    await markAttached(trx, [uploadId]);
    const payload: MeetingNotesJobPayload = {
      blockId: block.id,
      uploadId,
      language,
      kickoffSummary: input.options?.kickoff_summary ?? true,
      provisionalTitle: input.title ?? null,
      connectionId: caller.connectionId,
      actorId: caller.botId,
    };
    await enqueueJob(trx, {
      id: ctx.newId(),
      kind: MEETING_NOTES_JOB,
      workspaceId: caller.workspaceId,
      subjectId: block.id,
      payload,
      maxAttempts: MEETING_NOTES_MAX_ATTEMPTS,
      // Jobs run on the system clock, whatever the test clock says (docs/decisions.md).
      at: new Date().toISOString(),
    });
    await touchPageOf(trx, block.id, caller.botId, at);
    const [view] = await loadWrittenBlocks(trx, caller, [block]);
    return view;
  });
  ctx.jobs.wake();
  return created;
}

/**
 * The spec's 400 when "AI meeting notes are unavailable to the integration's user": a public or
 * personal connection acts for its person, who needs the feature, in a workspace that has it; an
 * internal connection acts for the workspace. Then the credits: at least one minute's worth must
 * be left in the workspace and under the connection's own limit (the real cost is charged once
 * the recording's length is known, src/commands/meetingNotes/processMeetingNote.ts).
 */
async function assertEntitled(db: Db, caller: Caller, workspace: WorkspaceRow): Promise<void> {
  let enabled = workspace.meeting_notes_enabled === 1;
  if (enabled && caller.userId) enabled = (await findUser(db, caller.workspaceId, caller.userId))?.meeting_notes_enabled === 1;
  if (!enabled) {
    throw validationError(
      caller.userId
        ? 'AI meeting notes are not available to the user this integration acts for. A workspace owner can enable them.'
        : 'AI meeting notes are not available in this workspace. A workspace owner can enable them.',
    );
  }
  const least = creditsFor(0);
  if (workspace.ai_credits !== null && workspace.ai_credits < least) throw workspaceCreditsExhausted();
  const connection = await findConnection(db, caller.connectionId);
  if (connection && connection.ai_credit_limit !== null && connection.ai_credits_used + least > connection.ai_credit_limit) throw agentCreditLimitReached();
}

/** The caller's own upload, `uploaded`, holding audio or video. */
async function ownRecording(db: Db, caller: Caller, rawId: string, now: Date): Promise<string> {
  const path = ['source', 'file_upload_id'];
  const upload = await findFileUpload(db, normalizeId(rawId) ?? rawId);
  if (!upload || upload.connection_id !== caller.connectionId) throw invalidField(path, 'should be the ID of a file upload created by this integration', rawId);
  const status = uploadStatusNow(upload, now);
  if (status !== 'uploaded') throw invalidField(path, `should be a file upload with status \`uploaded\` (this one is \`${status}\`)`, rawId);
  const refused = refuseRecordingType(upload.content_type);
  if (refused) throw invalidField(path, refused, rawId);
  return upload.id;
}

/** The upload behind an audio, video or file block: it must be a hosted file of audio or video. */
async function recordingOfBlock(db: Db, block: ObjectRow, rawId: string, now: Date): Promise<string> {
  const path = ['source', 'block_id'];
  if (block.object !== 'block' || !RECORDING_BLOCK_TYPES.has(block.type ?? '')) {
    throw invalidField(path, 'should be the ID of an audio, video or file block', rawId);
  }
  const url = parseContent<{ file?: { url?: unknown } }>(block.content).file?.url;
  const uploadId = typeof url === 'string' ? hostedUploadId(url) : null;
  const upload = uploadId ? await findFileUpload(db, uploadId) : undefined;
  if (!upload || uploadStatusNow(upload, now) !== 'uploaded')
    throw invalidField(path, 'should be a block whose file is an uploaded file (not an external link)', rawId);
  const refused = refuseRecordingType(upload.content_type);
  if (refused) throw invalidField(path, `should hold an audio or video file: its file ${refused}`, rawId);
  return upload.id;
}
