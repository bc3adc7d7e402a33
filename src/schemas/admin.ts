import { Type, type Static } from 'typebox';
import { PaginationQuery, StrictObject } from './common.js';
import { CONNECTION_KINDS, CONTENT_CAPABILITIES, USER_INFO_LEVELS } from '../auth/capabilities.js';

/**
 * Bodies of the admin plane (/admin/v1). `folio admin` validates its options against the same
 * schemas, so the command line and HTTP refuse the same input with the same message.
 */
export const CreateWorkspaceBody = StrictObject({ name: Type.String({ minLength: 1, maxLength: 200 }) });

/** `max_file_upload_size_in_bytes`: null returns the workspace to the server's default (FOLIO_MAX_FILE_UPLOAD_BYTES). */
export const UpdateWorkspaceBody = StrictObject({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  max_file_upload_size_in_bytes: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), Type.Null()])),
  meeting_notes_enabled: Type.Optional(Type.Boolean()),
  /** Checked by the command, not here: a bad limit is `invalid_credit_limit`, not `validation_error` (spec, "Errors"). */
  ai_credits: Type.Optional(Type.Unknown()),
});
export const UpdateUserBody = Type.Object({ meeting_notes_enabled: Type.Optional(Type.Boolean()) }, { additionalProperties: false, minProperties: 1 });
export const CreateUserBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.String({ format: 'email', maxLength: 200 }),
  meeting_notes_enabled: Type.Optional(Type.Boolean()),
  email_verified: Type.Optional(Type.Boolean()),
  avatar_url: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
});
const ConnectionName = Type.String({ minLength: 1, maxLength: 200 });
const Capabilities = Type.Array(Type.Union([...CONTENT_CAPABILITIES, ...USER_INFO_LEVELS].map((c) => Type.Literal(c))), { maxItems: 10 });
export const CreateConnectionBody = StrictObject({
  name: ConnectionName,
  kind: Type.Union(CONNECTION_KINDS.map((k) => Type.Literal(k))),
  capabilities: Capabilities,
  user_id: Type.Optional(Type.String()),
});
/** Rename a connection or replace its capabilities; its kind and person are fixed at creation. */
export const UpdateConnectionBody = Type.Object(
  {
    name: Type.Optional(ConnectionName),
    capabilities: Type.Optional(Capabilities),
    /** The connection's own AI credit cap, null for none; checked by the command (`invalid_credit_limit`). */
    ai_credit_limit: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export const CreatePageBody = StrictObject({
  title: Type.String({ maxLength: 2000 }),
  /** A person or bot of the workspace; by default the workspace's first person. */
  created_by: Type.Optional(Type.String()),
});
export const GrantBody = StrictObject({ object_id: Type.String() });
/**
 * The test clock (FOLIO_TEST_CLOCK=1): an instant to fix the server's time at, or null to return
 * to the system clock. RFC 3339 date-times carry their offset, so the instant is never a guess.
 */
export const SetClockBody = StrictObject({ now: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]) });
export const AdminListQuery = PaginationQuery;

export type UpdateConnectionInput = Static<typeof UpdateConnectionBody>;
export type UpdateWorkspaceInput = Static<typeof UpdateWorkspaceBody>;
export type UpdateUserInput = Static<typeof UpdateUserBody>;
export type AdminListOptions = Static<typeof AdminListQuery>;
export type SetClockInput = Static<typeof SetClockBody>;
