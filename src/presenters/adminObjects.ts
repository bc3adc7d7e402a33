import type { Caller } from '../auth/capabilities.js';
import type { ClockView, ListView } from '../domain/views.js';
import type { ConnectionRow, UserRow, WorkspaceRow } from '../storage/schema.js';
import { presentUser } from './user.js';

/** Admin-plane objects: allowlists of columns; a connection's token hash is never shown. */
export function presentWorkspace(row: WorkspaceRow) {
  // null: the server's default applies (FOLIO_MAX_FILE_UPLOAD_BYTES).
  return { object: 'workspace' as const, id: row.id, name: row.name, max_file_upload_size_in_bytes: row.max_file_upload_bytes };
}

export function presentConnection(row: ConnectionRow) {
  const capabilities = JSON.parse(row.capabilities) as string[];
  return {
    object: 'connection' as const,
    id: row.id,
    name: row.name,
    kind: row.kind,
    capabilities: [...capabilities, row.user_info],
    workspace_id: row.workspace_id,
    user_id: row.user_id,
    bot_id: row.bot_id,
  };
}

/** A connection with its new token: shown once, at creation and rotation; only its hash is stored. */
export function presentIssuedToken(issued: { row: ConnectionRow; token: string }) {
  return { ...presentConnection(issued.row), token: issued.token };
}

/** Operators see every user as a caller with every user capability would, e-mail included. */
const OPERATOR_VIEW: Caller = {
  connectionId: '',
  connectionName: 'admin',
  workspaceId: '',
  kind: 'internal',
  capabilities: new Set(),
  userInfo: 'user_info_with_email',
  userId: null,
  botId: '',
};

export function presentOperatorUser(row: UserRow) {
  return presentUser(row, OPERATOR_VIEW);
}

/** A grant; `created_time` is known when it was read back, not when it was just made. */
export function presentGrant(grant: { connection_id: string; object_id: string; created_time?: string }) {
  const { connection_id, object_id, created_time } = grant;
  return { object: 'grant' as const, connection_id, object_id, ...(created_time === undefined ? {} : { created_time }) };
}

export function presentDeleted<K extends string>(object: K, id: string) {
  return { object, id, deleted: true as const };
}

/** An admin listing, paginated like the API's lists. */
export function presentAdminList<T, R>(list: ListView<T>, presentItem: (item: T) => R) {
  return { object: 'list' as const, results: list.items.map(presentItem), next_cursor: list.nextCursor, has_more: list.nextCursor !== null };
}

export function presentClock(view: ClockView) {
  return { object: 'clock' as const, now: view.now.toISOString(), fixed: view.fixed };
}
