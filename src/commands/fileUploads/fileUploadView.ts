import type { Caller } from '../../auth/capabilities.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../storage/db.js';
import type { FileUploadRow, FileUploadStatus } from '../../storage/schema.js';
import type { FileUploadView } from '../../domain/views.js';
import { notFound } from '../../errors/registry.js';
import { findFileUpload, storedBlobsOf } from '../../storage/repositories/fileUploads.js';
import { findWorkspace } from '../../storage/repositories/workspaces.js';

/** An upload whose expiry passed is `expired` from that instant, before the sweeper marks its row. */
export function uploadStatusNow(row: FileUploadRow, now: Date): FileUploadStatus {
  if ((row.status === 'pending' || row.status === 'uploaded') && row.expiry_time !== null && Date.parse(row.expiry_time) <= now.getTime()) return 'expired';
  return row.status;
}

/** The caller's own upload; any other (or none) is `object_not_found`, told apart by nothing. */
export async function loadOwnUpload(db: Db, caller: Caller, id: string | null, rawId: string): Promise<FileUploadRow> {
  const row = id ? await findFileUpload(db, id) : undefined;
  if (!row || row.connection_id !== caller.connectionId) throw notFound('file_upload', rawId);
  return row;
}

export async function fileUploadView(db: Db, row: FileUploadRow, now: Date): Promise<FileUploadView> {
  const partsSent = row.mode === 'multi_part' ? (await storedBlobsOf(db, row.id)).length : 0;
  return { upload: row, status: uploadStatusNow(row, now), partsSent };
}

/** The per-file limit of the caller's workspace: the operator's, else the server's default. */
export async function uploadLimitOf(ctx: AppContext, caller: Caller): Promise<number> {
  const workspace = caller.rows?.workspace ?? (await findWorkspace(ctx.store.db, caller.workspaceId));
  return workspace?.max_file_upload_bytes ?? ctx.config.maxFileUploadBytes;
}
