import { AdminMeetingNote, MeetingNoteParams, WorkspaceParams } from '../schemas/admin.js';
import { presentMeetingNote } from '../presenters/adminObjects.js';
import { getMeetingNote, listMeetingNotes } from '../commands/admin/meetingNotes.js';
import { adminOperation, listing, pathOption, type AnyAdminOperation } from './adminOperation.js';

/** Meeting notes for operators and the console: status, result blocks, and the recording by a signed link. */
export const MEETING_NOTE_OPERATIONS: readonly AnyAdminOperation[] = [
  listing({
    path: '/workspaces/:workspace_id/meeting_notes',
    params: WorkspaceParams,
    item: AdminMeetingNote,
    load: (ctx, params, page) => listMeetingNotes(ctx, params.workspace_id, page),
    presentItem: presentMeetingNote,
    cli: {
      name: 'list-meeting-notes',
      description: "list a workspace's meeting notes and their status",
      options: [pathOption('--workspace <id>', 'workspace_id')],
    },
  }),
  adminOperation({
    method: 'GET',
    path: '/meeting_notes/:block_id',
    params: MeetingNoteParams,
    response: AdminMeetingNote,
    run: (ctx, { params }) => getMeetingNote(ctx, params.block_id),
    present: presentMeetingNote,
    cli: { name: 'get-meeting-note', description: 'show a meeting note: status, results, recording link', options: [pathOption('--block <id>', 'block_id')] },
  }),
];
