/** The state every new object starts in: not trashed, not locked, created and last edited by its author at `at`. */
export function newObjectState(actorId: string, at: string) {
  return { in_trash: 0, trashed: 0, is_locked: 0, is_archived: 0, created_time: at, created_by: actorId, last_edited_time: at, last_edited_by: actorId };
}
