import type { Static } from 'typebox';
import type { ClockView, ListView, MeetingNoteView } from '../domain/views.js';
import type { EngineReadiness } from '../domain/meetingNotes/engineReadiness.js';
import type { ConnectionRow, IntegrationRow, JobRow, JobState, ObjectRow, UserRow, WorkspaceRow } from '../storage/schema.js';
import type {
  AdminClock,
  AdminContentObject,
  AdminMeetingNote,
  AdminConnection,
  AdminGrant,
  AdminJob,
  AdminProcessing,
  AdminWorkspace,
  FileUploadSweep,
  IssuedToken,
  OperatorUser,
  RevokedGrant,
  AdminIntegration,
  IssuedIntegration,
  SignInLink,
  OAuthAuthorization,
} from '../schemas/admin.js';

/**
 * Admin-plane objects: allowlists of columns; a connection's token hash is never shown. Each
 * returns the `Static<>` type of its response schema (src/schemas/admin.ts), so a presenter that
 * drifts from the schema its routes declare is a compile error.
 */
export function presentWorkspace(row: WorkspaceRow): Static<typeof AdminWorkspace> {
  return {
    object: 'workspace',
    id: row.id,
    name: row.name,
    // null: the server's default applies (FOLIO_MAX_FILE_UPLOAD_BYTES).
    max_file_upload_size_in_bytes: row.max_file_upload_bytes,
    meeting_notes_enabled: row.meeting_notes_enabled === 1,
    // null: no limit set.
    ai_credits: row.ai_credits,
  };
}

export function presentConnection(row: ConnectionRow): Static<typeof AdminConnection> {
  const capabilities = JSON.parse(row.capabilities) as string[];
  return {
    object: 'connection',
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
export function presentIssuedToken(issued: { row: ConnectionRow; token: string }): Static<typeof IssuedToken> {
  return { ...presentConnection(issued.row), token: issued.token };
}

/**
 * Operators see every user as a caller with every user capability would (the API's user object,
 * src/presenters/user.ts, with `user_info_with_email`), and a person's meeting-notes switch.
 */
export function presentOperatorUser(row: UserRow): Static<typeof OperatorUser> {
  const base = { object: 'user' as const, id: row.id, name: row.name, avatar_url: row.avatar_url };
  if (row.type === 'bot') return { ...base, type: 'bot', bot: {} };
  return {
    ...base,
    type: 'person',
    person: row.email === null ? {} : { email: row.email, email_verified: row.email_verified === 1 },
    meeting_notes_enabled: row.meeting_notes_enabled === 1,
  };
}

/** A grant; `created_time` is known when it was read back, not when it was just made. */
export function presentGrant(grant: { connection_id: string; object_id: string; created_time?: string }): Static<typeof AdminGrant> {
  const { connection_id, object_id, created_time } = grant;
  return { object: 'grant', connection_id, object_id, ...(created_time === undefined ? {} : { created_time }) };
}

export function presentRevokedGrant(grant: { connection_id: string; object_id: string }): Static<typeof RevokedGrant> {
  return { ...presentGrant(grant), deleted: true };
}

export function presentDeleted<K extends string>(object: K, id: string) {
  return { object, id, deleted: true as const };
}

/** An admin listing, paginated like the API's lists. */
export function presentAdminList<T, R>(list: ListView<T>, presentItem: (item: T) => R) {
  return { object: 'list' as const, results: list.items.map(presentItem), next_cursor: list.nextCursor, has_more: list.nextCursor !== null };
}

export function presentClock(view: ClockView): Static<typeof AdminClock> {
  return { object: 'clock', now: view.now.toISOString(), fixed: view.fixed };
}

/** A background job: its state, attempts and last error, never its payload (it may name files). */
export function presentJob(row: JobRow): Static<typeof AdminJob> {
  return {
    object: 'job',
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
}): Static<typeof AdminProcessing> {
  return {
    object: 'processing',
    paused: state.paused,
    jobs: { queued: state.jobs.queued ?? 0, running: state.jobs.running ?? 0, done: state.jobs.done ?? 0, failed: state.jobs.failed ?? 0 },
    transcriber: state.transcriber,
    summarizer: state.summarizer,
    ...(state.blocks_changed === undefined ? {} : { blocks_changed: state.blocks_changed }),
  };
}

/** The upload sweeper's run: uploads marked expired, blobs whose bytes were deleted. */
export function presentFileUploadSweep(result: { expired: number; blobsDeleted: number }): Static<typeof FileUploadSweep> {
  return { object: 'file_upload_sweep', expired: result.expired, blobs_deleted: result.blobsDeleted };
}

/** A public integration; its secret's hash is never shown. */
export function presentIntegration(row: IntegrationRow): Static<typeof AdminIntegration> {
  return {
    object: 'integration',
    id: row.id,
    client_id: row.client_id,
    name: row.name,
    redirect_uris: JSON.parse(row.redirect_uris) as string[],
    capabilities: JSON.parse(row.capabilities) as string[],
    webhook_url: row.webhook_url,
    created_time: row.created_time,
  };
}

/** An integration with its new client secret: shown once, at creation and rotation; only its hash is stored. */
export function presentIssuedIntegration(issued: { row: IntegrationRow; secret: string }): Static<typeof IssuedIntegration> {
  return { ...presentIntegration(issued.row), client_secret: issued.secret };
}

export function presentSignInLink(link: { url: string; expiresAt: string; workspaceId: string; userId: string }): Static<typeof SignInLink> {
  return { object: 'sign_in_link', url: link.url, expires_at: link.expiresAt, workspace_id: link.workspaceId, user_id: link.userId };
}

export function presentOAuthAuthorization(grant: { code: string; redirectUrl: string; expiresAt: string }): Static<typeof OAuthAuthorization> {
  return { object: 'oauth_authorization', code: grant.code, redirect_url: grant.redirectUrl, expires_at: grant.expiresAt };
}

/** A page or database as the console's tree lists it. */
export function presentContentObject(row: ObjectRow): Static<typeof AdminContentObject> {
  return {
    object: 'content_object',
    id: row.id,
    kind: row.object === 'database' ? 'database' : 'page',
    title: row.title,
    parent_id: row.parent_id,
    in_trash: row.in_trash === 1,
    created_time: row.created_time,
  };
}

/** A meeting note for the console: status, the result blocks, and its recording's signed link. */
export function presentMeetingNote(view: MeetingNoteView): Static<typeof AdminMeetingNote> {
  const { row, member } = view;
  return {
    object: 'meeting_note',
    id: row.id,
    workspace_id: row.workspace_id,
    title: (member.title ?? []).map((t) => t.plain_text).join(''),
    status: member.status,
    in_trash: row.in_trash === 1,
    created_time: row.created_time,
    root_id: view.rootId,
    children: {
      summary_block_id: member.children?.summary_block_id ?? null,
      notes_block_id: member.children?.notes_block_id ?? null,
      transcript_block_id: member.children?.transcript_block_id ?? null,
    },
    recording: view.recording,
  };
}
