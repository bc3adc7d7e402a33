import type { Db } from '../db.js';
import type { FileBlobRow, FileUploadRow, FileUploadStatus } from '../schema.js';

export async function insertFileUpload(db: Db, row: FileUploadRow): Promise<void> {
  await db.insertInto('file_uploads').values(row).execute();
}

export async function findFileUpload(db: Db, id: string): Promise<FileUploadRow | undefined> {
  return db.selectFrom('file_uploads').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The uploads among `ids` (for attaching several at once). */
export async function findFileUploads(db: Db, ids: readonly string[]): Promise<FileUploadRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('file_uploads').selectAll().where('id', 'in', ids).execute();
}

export async function updateFileUpload(db: Db, id: string, changes: Partial<Omit<FileUploadRow, 'id'>>): Promise<void> {
  await db.updateTable('file_uploads').set(changes).where('id', '=', id).execute();
}

/**
 * Moves an upload from one status to another only if it is still in the first: of two requests
 * racing (a send and a complete, two completes), one wins and the other sees 0.
 */
export async function transitionFileUpload(db: Db, id: string, from: FileUploadStatus, changes: Partial<Omit<FileUploadRow, 'id'>>): Promise<boolean> {
  const result = await db.updateTable('file_uploads').set(changes).where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Attaching clears the expiry, so an attached upload never expires or is swept. */
export async function markAttached(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await db.updateTable('file_uploads').set({ expiry_time: null }).where('id', 'in', ids).where('expiry_time', 'is not', null).execute();
}

/**
 * A connection's uploads, newest first (the service lists them so), keyset-paged on (created_time, id).
 * `expiredBefore`: with a status filter, uploads whose expiry passed count as `expired` whatever
 * their stored status says (the sweeper may not have run yet).
 */
export async function listFileUploadsOf(
  db: Db,
  connectionId: string,
  filter: { status: FileUploadStatus | null; now: string },
  after: { created_time: string; id: string } | null,
  limit: number,
): Promise<FileUploadRow[]> {
  let query = db.selectFrom('file_uploads').selectAll().where('connection_id', '=', connectionId);
  const { status, now } = filter;
  if (status === 'expired') {
    query = query.where((eb) => eb.or([eb('status', '=', 'expired'), eb.and([eb('status', 'in', ['pending', 'uploaded']), eb('expiry_time', '<=', now)])]));
  } else if (status === 'pending' || status === 'uploaded') {
    query = query.where('status', '=', status).where((eb) => eb.or([eb('expiry_time', 'is', null), eb('expiry_time', '>', now)]));
  } else if (status) {
    query = query.where('status', '=', status);
  }
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('created_time', '<', after.created_time), eb.and([eb('created_time', '=', after.created_time), eb('id', '<', after.id)])]),
    );
  }
  return query.orderBy('created_time', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** Recorded before its bytes are written, so bytes of a send that never finished are findable. */
export async function insertBlob(db: Db, key: string, uploadId: string, now: string): Promise<void> {
  await db.insertInto('file_blobs').values({ key, upload_id: uploadId, part_number: null, size: null, state: 'writing', created_time: now }).execute();
}

/** The blob's bytes are durable: it becomes part `partNumber` of its upload (unique: a part sent twice fails here). */
export async function storeBlob(db: Db, key: string, partNumber: number, size: number): Promise<void> {
  await db.updateTable('file_blobs').set({ part_number: partNumber, size, state: 'stored' }).where('key', '=', key).execute();
}

export async function deleteBlobRows(db: Db, keys: readonly string[]): Promise<void> {
  if (keys.length > 0) await db.deleteFrom('file_blobs').where('key', 'in', keys).execute();
}

/** The upload's stored parts in order. */
export async function storedBlobsOf(db: Db, uploadId: string): Promise<FileBlobRow[]> {
  return db.selectFrom('file_blobs').selectAll().where('upload_id', '=', uploadId).where('state', '=', 'stored').orderBy('part_number').execute();
}

/** Uploads past their expiry, unattached and not yet marked: the sweeper marks them expired. */
export async function expireFileUploads(db: Db, now: string, lastEdited: string): Promise<number> {
  const result = await db
    .updateTable('file_uploads')
    .set({ status: 'expired', last_edited_time: lastEdited })
    .where('status', 'in', ['pending', 'uploaded'])
    .where('expiry_time', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Blobs whose bytes nothing will read: those of expired, failed or deleted uploads, and writes
 * that started before `staleBefore` and never finished (their process died).
 */
export async function blobsToSweep(db: Db, staleBefore: string, limit: number): Promise<FileBlobRow[]> {
  return db
    .selectFrom('file_blobs')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'writing'), eb('created_time', '<', staleBefore)]),
        eb.not(eb.exists(eb.selectFrom('file_uploads as u').select('u.id').whereRef('u.id', '=', 'file_blobs.upload_id'))),
        eb.exists(
          eb.selectFrom('file_uploads as u').select('u.id').whereRef('u.id', '=', 'file_blobs.upload_id').where('u.status', 'in', ['expired', 'failed']),
        ),
      ]),
    )
    .limit(limit)
    .execute();
}
