import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { FileUploadView, ListView } from '../../domain/views.js';
import type { FileUploadStatus } from '../../storage/schema.js';
import { normalizeId } from '../../ids/ids.js';
import { decodeCursor, encodeCursor } from '../../ids/cursor.js';
import { listFileUploadsOf } from '../../storage/repositories/fileUploads.js';
import { fileUploadView, loadOwnUpload } from './fileUploadView.js';

/** GET /v1/file_uploads/{id}: the caller's own upload. */
export async function retrieveFileUpload(ctx: AppContext, caller: Caller, rawId: string): Promise<FileUploadView> {
  const db = ctx.store.db;
  return fileUploadView(db, await loadOwnUpload(db, caller, normalizeId(rawId), rawId), ctx.clock.now());
}

/** GET /v1/file_uploads: the caller's uploads, newest first, optionally of one status. */
export async function listFileUploads(
  ctx: AppContext,
  caller: Caller,
  query: { status?: FileUploadStatus; start_cursor?: string; page_size?: number },
): Promise<ListView<FileUploadView>> {
  const db = ctx.store.db;
  const now = ctx.clock.now();
  const pageSize = query.page_size ?? 100;
  const scope = `file_uploads:${query.status ?? ''}`;
  const after = query.start_cursor ? decodeCursor(scope, query.start_cursor, 'start_cursor', 'query') : null;
  const rows = await listFileUploadsOf(
    db,
    caller.connectionId,
    { status: query.status ?? null, now: now.toISOString() },
    after ? { created_time: String(after[0]), id: String(after[1]) } : null,
    pageSize + 1,
  );
  const page = rows.slice(0, pageSize);
  const last = page[page.length - 1];
  return {
    items: await Promise.all(page.map((row) => fileUploadView(db, row, now))),
    nextCursor: rows.length > pageSize ? encodeCursor(scope, [last.created_time, last.id]) : null,
  };
}
