import type { Db } from '../db.js';

/**
 * Meeting notes whose title no property value holds yet (made before the meeting-notes query,
 * migration 011), with the person their creating bot's connection acts for: what the start-up
 * backfill writes (src/domain/meetingNotes/backfillMeetingNoteValues.ts).
 */
export async function meetingNotesWithoutValues(db: Db, limit: number): Promise<Array<{ id: string; content: string; user_id: string | null }>> {
  return db
    .selectFrom('objects as o')
    .leftJoin('property_values as v', (join) => join.onRef('v.page_id', '=', 'o.id').on('v.property_id', '=', 'title'))
    .select(['o.id', 'o.content'])
    .select((eb) => eb.selectFrom('connections as c').select('c.user_id').whereRef('c.bot_id', '=', 'o.created_by').limit(1).as('user_id'))
    .where('o.object', '=', 'block')
    .where('o.type', '=', 'meeting_notes')
    .where('v.page_id', 'is', null)
    .orderBy('o.id')
    .limit(limit)
    .execute();
}
