import { Type, type Static } from 'typebox';
import { IdString, StrictObject } from './common.js';
import { MEETING_LANGUAGES } from '../domain/meetingNotes/languages.js';

/**
 * POST /v1/blocks/meeting_notes (spec, "POST /v1/blocks/meeting_notes"): every object refuses
 * other keys; which source needs a parent is a rule of the command (createMeetingNote.ts), so its
 * message can say why.
 */
export const MeetingNotesSource = Type.Union([
  StrictObject({ type: Type.Literal('file_upload'), file_upload_id: IdString }),
  StrictObject({ type: Type.Literal('block'), block_id: IdString }),
]);

export const CreateMeetingNoteBody = StrictObject({
  title: Type.Optional(Type.String({ maxLength: 2000 })),
  language: Type.Optional(Type.Union(MEETING_LANGUAGES.map((l) => Type.Literal(l)))),
  options: Type.Optional(StrictObject({ kickoff_summary: Type.Optional(Type.Boolean()) })),
  source: MeetingNotesSource,
  parent: Type.Optional(StrictObject({ type: Type.Literal('page_id'), page_id: IdString })),
});

export type CreateMeetingNoteInput = Static<typeof CreateMeetingNoteBody>;
