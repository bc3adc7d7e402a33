import { Type, type Static, type TSchema } from 'typebox';
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
/** POST /admin/v1/reset: `seed` needs a server started with a seed. */
export const ResetBody = StrictObject({ to: Type.Union([Type.Literal('empty'), Type.Literal('seed')]) });
export const AdminReset = Type.Object({ object: Type.Literal('reset'), to: Type.String(), duration_ms: Type.Number() }, { additionalProperties: false });
export type ResetInput = Static<typeof ResetBody>;
export const SetClockBody = StrictObject({ now: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]) });
export const AdminListQuery = PaginationQuery;
const JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;
/** GET /admin/v1/jobs: a page of jobs, narrowed by state, kind or subject. */
export const JobsQuery = Type.Object(
  {
    ...PaginationQuery.properties,
    state: Type.Optional(Type.Unsafe<(typeof JOB_STATES)[number]>(Type.Union(JOB_STATES.map((s) => Type.Literal(s))))),
    kind: Type.Optional(Type.String({ maxLength: 100 })),
    subject_id: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);

/** Path parameters: ids arrive as text and are parsed by the operation (`parseIdParam`), which names the field when one is not a uuid. */
export const WorkspaceParams = StrictObject({ workspace_id: Type.String() });
export const WorkspaceUserParams = StrictObject({ workspace_id: Type.String(), user_id: Type.String() });
export const ConnectionParams = StrictObject({ connection_id: Type.String() });
export const GrantParams = StrictObject({ connection_id: Type.String(), object_id: Type.String() });

/*
 * Response bodies of the admin plane, declared on each operation (src/admin/) as the route's
 * `config.response`; test runs check every 2xx body against them (src/http/checkResponses.ts), and
 * the presenters (src/presenters/adminObjects.ts) return their `Static<>` types, so a presenter and
 * its schema cannot drift apart. Every object is closed: an operator's tooling reads these fields.
 */
const Closed = { additionalProperties: false } as const;
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const AdminWorkspace = Type.Object(
  {
    object: Type.Literal('workspace'),
    id: Type.String(),
    name: Type.String(),
    /** null: the server's default applies (FOLIO_MAX_FILE_UPLOAD_BYTES). */
    max_file_upload_size_in_bytes: Nullable(Type.Integer()),
    meeting_notes_enabled: Type.Boolean(),
    /** null: no limit set. */
    ai_credits: Nullable(Type.Number()),
  },
  Closed,
);

const connectionFields = {
  object: Type.Literal('connection'),
  id: Type.String(),
  name: Type.String(),
  kind: Type.Enum(CONNECTION_KINDS),
  /** Content capabilities, then the one user-information level. */
  capabilities: Type.Array(Type.String()),
  workspace_id: Type.String(),
  user_id: Nullable(Type.String()),
  bot_id: Type.String(),
  ai_credit_limit: Nullable(Type.Number()),
  ai_credits_used: Type.Number(),
};
export const AdminConnection = Type.Object(connectionFields, Closed);
/** A connection with its token: answered once, at creation and rotation. */
export const IssuedToken = Type.Object({ ...connectionFields, token: Type.String() }, Closed);

const userFields = { object: Type.Literal('user'), id: Type.String(), name: Nullable(Type.String()), avatar_url: Nullable(Type.String()) };
/** A user as an operator sees it: a person's e-mail (when known) and meeting-notes switch; a bot without details. */
export const OperatorUser = Type.Union([
  Type.Object(
    {
      ...userFields,
      type: Type.Literal('person'),
      person: Type.Union([Type.Object({ email: Type.String(), email_verified: Type.Boolean() }, Closed), Type.Object({}, Closed)]),
      meeting_notes_enabled: Type.Boolean(),
    },
    Closed,
  ),
  Type.Object({ ...userFields, type: Type.Literal('bot'), bot: Type.Object({}, Closed) }, Closed),
]);

const grantFields = {
  object: Type.Literal('grant'),
  connection_id: Type.String(),
  object_id: Type.String(),
  /** Known when the grant was read back, not when it was just made. */
  created_time: Type.Optional(Type.String()),
};
export const AdminGrant = Type.Object(grantFields, Closed);
export const RevokedGrant = Type.Object({ ...grantFields, deleted: Type.Literal(true) }, Closed);

/** What a deletion answers: the object's kind and id. */
export const AdminDeleted = <K extends string>(object: K) =>
  Type.Object({ object: Type.Literal(object), id: Type.String(), deleted: Type.Literal(true) }, Closed);

/** An admin listing, paginated like the API's lists. */
export const AdminList = <T extends TSchema>(item: T) =>
  Type.Object({ object: Type.Literal('list'), results: Type.Array(item), next_cursor: Nullable(Type.String()), has_more: Type.Boolean() }, Closed);

export const AdminClock = Type.Object({ object: Type.Literal('clock'), now: Type.String({ format: 'date-time' }), fixed: Type.Boolean() }, Closed);

export const AdminJob = Type.Object(
  {
    object: Type.Literal('job'),
    id: Type.String(),
    kind: Type.String(),
    subject_id: Type.String(),
    workspace_id: Type.String(),
    state: Type.Enum(JOB_STATES),
    attempts: Type.Integer(),
    max_attempts: Type.Integer(),
    last_error: Nullable(Type.String()),
    worker_id: Nullable(Type.String()),
    run_after: Type.String(),
    created_time: Type.String(),
    finished_time: Nullable(Type.String()),
  },
  Closed,
);

const EngineReadinessObject = Type.Union([
  Type.Object({ engine: Type.String(), ready: Type.Literal(true) }, Closed),
  Type.Object({ engine: Type.String(), ready: Type.Literal(false), reason: Type.String() }, Closed),
]);
export const AdminProcessing = Type.Object(
  {
    object: Type.Literal('processing'),
    paused: Type.Boolean(),
    jobs: Type.Object({ queued: Type.Integer(), running: Type.Integer(), done: Type.Integer(), failed: Type.Integer() }, Closed),
    transcriber: EngineReadinessObject,
    summarizer: EngineReadinessObject,
    /** After pause or resume: how many meeting notes blocks changed status. */
    blocks_changed: Type.Optional(Type.Integer()),
  },
  Closed,
);

export const FileUploadSweep = Type.Object({ object: Type.Literal('file_upload_sweep'), expired: Type.Integer(), blobs_deleted: Type.Integer() }, Closed);

export type UpdateConnectionInput = Static<typeof UpdateConnectionBody>;
export type UpdateWorkspaceInput = Static<typeof UpdateWorkspaceBody>;
export type UpdateUserInput = Static<typeof UpdateUserBody>;
export type AdminListOptions = Static<typeof AdminListQuery>;
export type SetClockInput = Static<typeof SetClockBody>;
export type JobsListQuery = Static<typeof JobsQuery>;

/**
 * GET /admin/v1/workspaces/{id}/objects (the console's page tree): the pages and databases directly
 * under a parent (the workspace's top level when `parent_id` is absent), a keyset page at a time, so a
 * tree of a million pages is read one opened branch at a time.
 */
export const ContentObjectsQuery = Type.Object(
  { ...PaginationQuery.properties, parent_id: Type.Optional(Type.String({ maxLength: 100 })) },
  { additionalProperties: false },
);
export const AdminContentObject = Type.Object(
  {
    object: Type.Literal('content_object'),
    id: Type.String(),
    kind: Type.Union([Type.Literal('page'), Type.Literal('database')]),
    title: Type.String(),
    parent_id: Nullable(Type.String()),
    /** In the trash, itself or through an ancestor. */
    in_trash: Type.Boolean(),
    created_time: Type.String(),
  },
  Closed,
);
export type ContentObjectsListQuery = Static<typeof ContentObjectsQuery>;

/**
 * A meeting note as the console shows it: its status, its recording by a signed link (the block
 * itself never shows its media), the blocks its results went to, and the page to share to read
 * them. GET /admin/v1/workspaces/{id}/meeting_notes lists them; /admin/v1/meeting_notes/{id} is one.
 */
export const AdminMeetingNote = Type.Object(
  {
    object: Type.Literal('meeting_note'),
    id: Type.String(),
    workspace_id: Type.String(),
    title: Type.String(),
    status: Type.String(),
    in_trash: Type.Boolean(),
    created_time: Type.String(),
    /** The top-level page or database it sits under. */
    root_id: Type.String(),
    children: Type.Object(
      { summary_block_id: Nullable(Type.String()), notes_block_id: Nullable(Type.String()), transcript_block_id: Nullable(Type.String()) },
      Closed,
    ),
    /** Its recording, by a link valid for an hour; null when the upload is gone. */
    recording: Nullable(
      Type.Object({ url: Type.String(), expiry_time: Type.String(), filename: Type.String(), content_type: Nullable(Type.String()) }, Closed),
    ),
  },
  Closed,
);
export const MeetingNoteParams = StrictObject({ block_id: Type.String() });
/*
 * Public integrations and their OAuth install flow (issue 27, migration 012). Server-wide: any
 * workspace's people may install one.
 */
const RedirectUri = Type.String({ format: 'uri', maxLength: 2000 });
const IntegrationFields = {
  name: ConnectionName,
  redirect_uris: Type.Array(RedirectUri, { minItems: 1, maxItems: 20 }),
  capabilities: Capabilities,
  webhook_url: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: 2000 }), Type.Null()])),
};
export const CreateIntegrationBody = StrictObject(IntegrationFields);
export const UpdateIntegrationBody = Type.Object(
  {
    name: Type.Optional(IntegrationFields.name),
    redirect_uris: Type.Optional(IntegrationFields.redirect_uris),
    capabilities: Type.Optional(IntegrationFields.capabilities),
    webhook_url: IntegrationFields.webhook_url,
  },
  { additionalProperties: false, minProperties: 1 },
);
export const IntegrationParams = StrictObject({ integration_id: Type.String() });
/** The same grant a person gives on the consent page, for tests without a browser. */
export const OAuthAuthorizationBody = StrictObject({
  integration_id: Type.String(),
  user_id: Type.String(),
  page_ids: Type.Array(Type.String(), { maxItems: 100 }),
  redirect_uri: Type.Optional(Type.String({ maxLength: 2000 })),
  state: Type.Optional(Type.String({ maxLength: 2000 })),
});

const integrationFields = {
  object: Type.Literal('integration'),
  id: Type.String(),
  client_id: Type.String(),
  name: Type.String(),
  redirect_uris: Type.Array(Type.String()),
  capabilities: Type.Array(Type.String()),
  webhook_url: Nullable(Type.String()),
  created_time: Type.String(),
};
export const AdminIntegration = Type.Object(integrationFields, Closed);
/** An integration with its client secret: answered once, at creation and rotation. */
export const IssuedIntegration = Type.Object({ ...integrationFields, client_secret: Type.String() }, Closed);
export const SignInLink = Type.Object(
  { object: Type.Literal('sign_in_link'), url: Type.String(), expires_at: Type.String(), workspace_id: Type.String(), user_id: Type.String() },
  Closed,
);
export const OAuthAuthorization = Type.Object(
  { object: Type.Literal('oauth_authorization'), code: Type.String(), redirect_url: Type.String(), expires_at: Type.String() },
  Closed,
);

export type CreateIntegrationInput = Static<typeof CreateIntegrationBody>;
export type UpdateIntegrationInput = Static<typeof UpdateIntegrationBody>;
export type OAuthAuthorizationInput = Static<typeof OAuthAuthorizationBody>;
