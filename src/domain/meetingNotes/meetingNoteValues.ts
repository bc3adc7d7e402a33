import type { Db } from '../../storage/db.js';
import { writeValue } from '../../storage/repositories/propertyValues.js';
import type { Property, Schema } from '../properties/schemaTypes.js';
import type { RichTextItem } from '../richText.js';
import { valueColumns } from '../properties/valueColumns.js';
import type { StoredValue } from '../properties/storedValue.js';

/**
 * The meeting-notes query (POST /v1/blocks/meeting_notes/query) runs on the query planner, which
 * filters and sorts pages by property: so a meeting note is queried as a page of this fixed
 * schema. Its timestamps and authors are the block row's own columns (as a page's are); its title
 * and attendees are kept as property values of the block (property_values, keyed by the block's
 * id, with no data source), written wherever the block's title is and read by the same
 * conditions a page's title and people are.
 */
const property = (id: string, type: Property['type']): Property => ({ id, name: id, description: null, type, [type]: {} });

export const MEETING_NOTES_SCHEMA: Schema = {
  title: property('title', 'title'),
  attendees: property('attendees', 'people'),
  created_time: property('created_time', 'created_time'),
  created_by: property('created_by', 'created_by'),
  last_edited_time: property('last_edited_time', 'last_edited_time'),
  last_edited_by: property('last_edited_by', 'last_edited_by'),
};

async function write(db: Db, blockId: string, value: StoredValue): Promise<void> {
  await writeValue(db, blockId, null, value.type === 'title' ? 'title' : 'attendees', JSON.stringify(value), valueColumns(value));
}

/** The note's title as its filters and sorts read it; written with every change of the block's title. */
export async function writeMeetingNoteTitle(db: Db, blockId: string, title: readonly RichTextItem[]): Promise<void> {
  await write(db, blockId, { type: 'title', title: [...title] });
}

/**
 * The note's attendees as `attendees` filters read them: Folio's notes come from recordings, with
 * no calendar, so the person the creating connection acts for attends (docs/decisions.md).
 */
export async function writeMeetingNoteAttendees(db: Db, blockId: string, userIds: readonly string[]): Promise<void> {
  await write(db, blockId, { type: 'people', people: userIds.map((id) => ({ object: 'user', id })) });
}
