import { writeMeetingNoteTitle } from '../../domain/meetingNotes/meetingNoteValues.js';
import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import { findObject } from '../../storage/repositories/objects.js';
import { saveContent } from '../../storage/repositories/blocks.js';
import { parseContent } from '../../domain/contentShapes.js';
import { canMove, type MeetingNotesMember } from '../../domain/meetingNotes/meetingNotesBlock.js';
import type { MeetingNotesStatus } from '../../schemas/meetingNotesStatuses.js';

export interface StatusChange {
  at: string;
  /** Move only from these states (a pause touches waiting blocks only). */
  only?: readonly MeetingNotesStatus[];
  /** Other fields written with the status (children ids, title, recording times). */
  patch?: Partial<Omit<MeetingNotesMember, 'status'>>;
}

/**
 * Moves a meeting notes block to `status` (with `patch`) when the status machine allows it, in the
 * caller's transaction; false when the block is gone, trashed, or the move is not allowed. The
 * block's last editor stays who it was: processing edits on behalf of the block's creator.
 */
export async function setMeetingNotesStatus(db: Db, blockId: string, status: MeetingNotesStatus, change: StatusChange): Promise<boolean> {
  const row = await findObject(db, blockId);
  if (!row || row.object !== 'block' || row.type !== 'meeting_notes') return false;
  const member = parseContent<MeetingNotesMember>(row.content);
  if (change.only && !change.only.includes(member.status)) return false;
  if (!canMove(member.status, status) && !(member.status === status && change.patch)) return false;
  const next: MeetingNotesMember = { ...member, ...change.patch, status };
  await saveContent(db, row.id, JSON.stringify(next), row.created_by, change.at);
  if (change.patch?.title) await writeMeetingNoteTitle(db, row.id, next.title);
  return true;
}

/** The member as stored, or undefined when the block is gone. */
export async function readMeetingNotes(db: Db, blockId: string): Promise<{ row: ObjectRow; member: MeetingNotesMember; inTrash: boolean } | undefined> {
  const row = await findObject(db, blockId);
  if (!row || row.object !== 'block' || row.type !== 'meeting_notes') return undefined;
  return { row, member: parseContent<MeetingNotesMember>(row.content), inTrash: row.in_trash === 1 };
}
