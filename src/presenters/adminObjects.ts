import type { Caller } from '../auth/capabilities.js';
import type { ClockView, ListView } from '../domain/views.js';
import type { ConnectionRow, JobRow, JobState, UserRow, WorkspaceRow } from '../storage/schema.js';
import type { EngineReadiness } from '../commands/meetingNotes/engineReadiness.js';
import { presentUser } from './user.js';

/** Admin-plane objects: allowlists of columns; a connection's token hash is never shown. */
export function presentWorkspace(row: WorkspaceRow) {
  // null: the server's default applies (FOLIO_MAX_FILE_UPLOAD_BYTES).
  return {
    object: 'workspace' as const,
    id: row.id,
    name: row.name,
    max_file_upload_size_in_bytes: row.max_file_upload_bytes,
    meeting_notes_enabled: row.meeting_notes_enabled === 1,
    // null: no limit set.
    ai_credits: row.ai_credits,
  };
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
    ai_credit_limit: row.ai_credit_limit,
    ai_credits_used: row.ai_credits_used,
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
  const user = presentUser(row, OPERATOR_VIEW);
  return row.type === 'person' ? { ...user, meeting_notes_enabled: row.meeting_notes_enabled === 1 } : user;
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

/** A background job: its state, attempts and last error, never its payload (it may name files). */
export function presentJob(row: JobRow) {
  return {
    object: 'job' as const,
    id: row.id,
    kind: row.kind,
    subject_id: row.subject_id,
    workspace_id: row.workspace_id,
    state: row.state,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    last_error: row.last_error,
    worker_id: row.worker_id,
    run_after: row.run_after,
    created_time: row.created_time,
    finished_time: row.finished_time,
  };
}

export function presentProcessing(state: {
  paused: boolean;
  jobs: Partial<Record<JobState, number>>;
  transcriber: EngineReadiness;
  summarizer: EngineReadiness;
  blocks_changed?: number;
}) {
  return {
    object: 'processing' as const,
    paused: state.paused,
    jobs: { queued: state.jobs.queued ?? 0, running: state.jobs.running ?? 0, done: state.jobs.done ?? 0, failed: state.jobs.failed ?? 0 },
    transcriber: state.transcriber,
    summarizer: state.summarizer,
    ...(state.blocks_changed === undefined ? {} : { blocks_changed: state.blocks_changed }),
  };
}
