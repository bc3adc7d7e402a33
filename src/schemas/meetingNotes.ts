import { Type, type Static } from 'typebox';
import { IdString, StrictObject } from './common.js';
import { MEETING_LANGUAGES } from './meetingLanguages.js';
import { MEETING_NOTES_STATUSES } from './meetingNotesStatuses.js';
import { BlockStamps, Closed, Id, Open, Unreadable } from './objectParts.js';

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

// ---- Responses (newest version; see src/schemas/objectParts.ts) ----

/** The meeting notes block (spec, "Meeting notes block (full response)"): exactly these fields, no parent. */
export const MeetingNotesBlock = Type.Object(
  {
    object: Type.Literal('block'),
    id: Id,
    type: Type.Literal('meeting_notes'),
    meeting_notes: Type.Object(
      {
        title: Type.Optional(Type.Array(Open, { maxItems: 100 })),
        status: Type.Optional(Type.Union(MEETING_NOTES_STATUSES.map((s) => Type.Literal(s)))),
        children: Type.Optional(
          Type.Object({ summary_block_id: Type.Optional(Id), notes_block_id: Type.Optional(Id), transcript_block_id: Type.Optional(Id) }, Closed),
        ),
        calendar_event: Type.Optional(
          Type.Object({ start_time: Type.String(), end_time: Type.String(), attendees: Type.Optional(Type.Array(Id, { maxItems: 100 })) }, Closed),
        ),
        recording: Type.Optional(Type.Object({ start_time: Type.Optional(Type.String()), end_time: Type.Optional(Type.String()) }, Closed)),
      },
      Closed,
    ),
    ...BlockStamps,
  },
  Closed,
);
/** With read content the full block, else only `{object, id}` (spec, "POST /v1/blocks/meeting_notes"). */
export const MeetingNoteCreatedResponse = Type.Union([MeetingNotesBlock, Unreadable('block')]);

// ---- POST /v1/blocks/meeting_notes/query (FACTS.md §10.7 7.1) ----

/** What a meeting-notes query sorts by (SDK `QueryMeetingNotesParameters.sort`). */
export const MEETING_NOTES_SORT_PROPERTIES = ['title', 'attendees', 'created_time', 'created_by', 'last_edited_time', 'last_edited_by'] as const;

/**
 * `filter` is checked by the command (src/domain/meetingNotes/meetingNotesFilter.ts), which names
 * the failing field in the filter's own terms; `sort` and `limit` here.
 */
export const QueryMeetingNotesBody = StrictObject({
  filter: Type.Optional(Type.Object({}, { additionalProperties: true })),
  sort: Type.Optional(
    Type.Array(
      StrictObject({
        property: Type.Union(MEETING_NOTES_SORT_PROPERTIES.map((p) => Type.Literal(p))),
        direction: Type.Union([Type.Literal('ascending'), Type.Literal('descending')]),
      }),
      { maxItems: 100 },
    ),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
});
export type QueryMeetingNotesInput = Static<typeof QueryMeetingNotesBody>;

/** `{results, has_more}`: no cursor, no `object` (SDK `QueryMeetingNotesResponse`). */
export const QueryMeetingNotesResponse = Type.Object({ results: Type.Array(MeetingNotesBlock), has_more: Type.Boolean() }, Closed);
