import type { Store } from '../../storage/createStore.js';
import { meetingNotesWithoutValues } from '../../storage/repositories/meetingNoteValues.js';
import { parseContent } from '../contentShapes.js';
import type { MeetingNotesMember } from './meetingNotesBlock.js';
import { writeMeetingNoteAttendees, writeMeetingNoteTitle } from './meetingNoteValues.js';

const BATCH = 500;

/**
 * Gives meeting notes made before the meeting-notes query their queried values (title,
 * attendees), at start after the migrations, as backfillValueColumns does for its rules: storage
 * may not import the domain's. Idempotent, and a no-op once every note has them (one anti-join).
 */
export async function backfillMeetingNoteValues(store: Store): Promise<number> {
  let written = 0;
  for (;;) {
    const notes = await meetingNotesWithoutValues(store.db, BATCH);
    if (notes.length === 0) return written;
    await store.transaction(async (trx) => {
      for (const note of notes) {
        await writeMeetingNoteTitle(trx, note.id, parseContent<MeetingNotesMember>(note.content).title ?? []);
        await writeMeetingNoteAttendees(trx, note.id, note.user_id ? [note.user_id] : []);
      }
    });
    written += notes.length;
  }
}
