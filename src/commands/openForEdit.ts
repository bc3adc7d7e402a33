import type { AppContext } from '../context.js';
import type { Caller } from '../auth/capabilities.js';
import type { Db } from '../storage/db.js';
import type { ObjectRow } from '../storage/schema.js';
import { assertEditable } from '../auth/access.js';
import { findObject, findObjectForUpdate } from '../storage/repositories/objects.js';
import { setTrashed } from '../domain/trash.js';
import { attachFileUploads } from './fileUploads/attachFileUploads.js';
import { resolveCustomEmojis } from './customEmojis/resolveCustomEmojis.js';
import { recordEvent } from './events/recordEvent.js';
import { lifecycleEvent } from './events/objectEvents.js';

/** What an update command tells the shared opening about its own body and object. */
export interface EditOpening<Body> {
  /** Loads the object the caller may see (object_not_found otherwise); the body is the one with uploads attached. */
  load(trx: Db, body: Body): Promise<ObjectRow>;
  /** Whether the request asks something an object in the trash refuses (FACTS.md §7: anything but restoring). */
  refusedInTrash(body: Body): boolean;
  /** Refuses the request when a lock covers the object; runs after the trash checks. */
  checkLock(trx: Db, row: ObjectRow, body: Body): Promise<void> | void;
}

/**
 * The opening every update command shares, in one order: file uploads named in the body are
 * attached, the object is loaded, restored first when the body un-trashes it (so a restore may come
 * with other edits), then refused if it is still in the trash or locked.
 */
export async function openForEdit<Body extends { in_trash?: boolean }>(
  ctx: AppContext,
  trx: Db,
  caller: Caller,
  given: Body,
  opening: EditOpening<Body>,
): Promise<{ body: Body; row: ObjectRow; now: Date; at: string }> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const body = await resolveCustomEmojis(ctx, trx, caller, await attachFileUploads(trx, caller, now, given));
  // Loaded (and access checked) first, then locked and read again: the update merges what it is
  // given into this row, so it must be the newest one and stay so until commit.
  const loaded = await opening.load(trx, body);
  let row = (await findObjectForUpdate(trx, loaded.id)) ?? loaded;
  if (body.in_trash === false && row.trashed === 1) {
    await setTrashed(trx, row.id, false, caller.botId, at);
    row = (await findObject(trx, row.id))!;
    await recordEvent(ctx, trx, caller, at, ...(await lifecycleEvent(trx, row, 'undeleted')));
  }
  if (row.in_trash === 1 && opening.refusedInTrash(body)) assertEditable(row);
  await opening.checkLock(trx, row, body);
  return { body, row, now, at };
}
