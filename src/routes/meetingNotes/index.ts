import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { CreateMeetingNoteBody, MeetingNoteCreatedResponse, QueryMeetingNotesBody, QueryMeetingNotesResponse } from '../../schemas/meetingNotes.js';
import { presentCreatedMeetingNote, presentMeetingNotesQuery } from '../../presenters/block.js';
import { createMeetingNote } from '../../commands/meetingNotes/createMeetingNote.js';
import { queryMeetingNotes } from '../../commands/meetingNotes/queryMeetingNotes.js';

export function registerMeetingNotesRoutes(app: App, ctx: AppContext): void {
  // A static path: Fastify prefers it to /v1/blocks/:block_id, which has no POST anyway.
  app.post(
    '/v1/blocks/meeting_notes',
    { config: { capability: 'insert_content', response: MeetingNoteCreatedResponse }, schema: { body: CreateMeetingNoteBody } },
    async (request) => presentCreatedMeetingNote(await createMeetingNote(ctx, request.caller!, request.body)),
  );

  app.post(
    '/v1/blocks/meeting_notes/query',
    { config: { capability: 'read_content', response: QueryMeetingNotesResponse }, schema: { body: QueryMeetingNotesBody } },
    async (request) => presentMeetingNotesQuery(await queryMeetingNotes(ctx, request.caller!, request.body ?? {})),
  );
}
