import type { AppContext } from '../../context.js';
import type { ListView, MeetingNoteView } from '../../domain/views.js';
import type { ObjectRow } from '../../storage/schema.js';
import type { AdminListOptions } from '../../schemas/admin.js';
import type { MeetingNotesJobPayload } from '../../domain/meetingNotes/meetingNotesJob.js';
import type { MeetingNotesMember } from '../../domain/meetingNotes/meetingNotesBlock.js';
import { parseContent } from '../../domain/contentShapes.js';
import { MEETING_NOTES_JOB } from '../../domain/meetingNotes/meetingNotesJob.js';
import { ApiError } from '../../errors/registry.js';
import { findObject } from '../../storage/repositories/objects.js';
import { findWorkspace } from '../../storage/repositories/workspaces.js';
import { jobsOfSubject } from '../../storage/repositories/jobs.js';
import { findFileUpload } from '../../storage/repositories/fileUploads.js';
import { listMeetingNotesBlocks } from '../../storage/repositories/contentTree.js';
import { topAncestor } from '../../storage/repositories/objectAncestors.js';
import { adminListPage } from './adminListPage.js';
import { adminNotFound } from './adminNotFound.js';

async function viewOf(ctx: AppContext, row: ObjectRow): Promise<MeetingNoteView> {
  const db = ctx.store.db;
  const member = parseContent<MeetingNotesMember>(row.content);
  // The recording is named by the note's job (the block shows no media, as the service's does not).
  const job = (await jobsOfSubject(db, row.id)).find((j) => j.kind === MEETING_NOTES_JOB);
  const uploadId = job ? (JSON.parse(job.payload) as MeetingNotesJobPayload).uploadId : null;
  const upload = uploadId ? await findFileUpload(db, uploadId) : undefined;
  const filename = upload?.filename ?? 'recording';
  const recording = upload
    ? { ...ctx.fileLinks.link(ctx.config.publicUrl, upload.id, encodeURIComponent(filename), ctx.clock.now()), filename, content_type: upload.content_type }
    : null;
  return { row, member, rootId: await topAncestor(db, row.id), recording };
}

export async function getMeetingNote(ctx: AppContext, blockId: string): Promise<MeetingNoteView> {
  const row = await findObject(ctx.store.db, blockId);
  if (!row || row.type !== 'meeting_notes') throw new ApiError('object_not_found', `Could not find meeting note with ID: ${blockId}.`);
  return viewOf(ctx, row);
}

export async function listMeetingNotes(ctx: AppContext, workspaceId: string, page: AdminListOptions): Promise<ListView<MeetingNoteView>> {
  if (!(await findWorkspace(ctx.store.db, workspaceId))) throw adminNotFound('workspace', workspaceId);
  const list = await adminListPage(
    `admin-meeting-notes:${workspaceId}`,
    page,
    (after, limit) => listMeetingNotesBlocks(ctx.store.db, workspaceId, after, limit),
    (row) => row.id,
  );
  return { items: await Promise.all(list.items.map((row) => viewOf(ctx, row))), nextCursor: list.nextCursor };
}
