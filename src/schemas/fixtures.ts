import { Type, type Static, type TSchema } from 'typebox';
import { IdString, StrictObject } from './common.js';
import { CONNECTION_KINDS, CONTENT_CAPABILITIES, USER_INFO_LEVELS } from '../auth/capabilities.js';

/**
 * The fixture format (docs/fixtures.md): what `POST /admin/v1/import`, `folio import`, FOLIO_SEED
 * read and what an export writes. Objects hold their content as the API answers it at the newest
 * version (which is how the store keeps it), so an export re-imports without loss; everything the
 * server can derive (positions, the ancestor closure, effective trash, typed value columns, the
 * search index) is left out and rebuilt on import.
 */

const Time = Type.String({ format: 'date-time' });
const JsonObject = Type.Record(Type.String(), Type.Unknown());
const Opt = <T extends TSchema>(schema: T) => Type.Optional(schema);
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const literals = <T extends string>(values: readonly T[]) => Type.Unsafe<T>(Type.Union(values.map((v) => Type.Literal(v))));

/** Bytes given inline (`base64`) or by a path relative to the fixture file (the CLI and FOLIO_SEED only). */
const Bytes = {
  base64: Opt(Type.String({ contentEncoding: 'base64', pattern: '^[A-Za-z0-9+/]*={0,2}$' })),
  path: Opt(Type.String({ minLength: 1, maxLength: 1000 })),
};

const OBJECT_KINDS = ['page', 'database', 'data_source', 'block'] as const;
const NODE_REF = '#/$defs/object';

/**
 * One object of the content tree: a page, database, data source or block, with its children in
 * order. A block carries its type member under its type's name (`"paragraph": {…}`), which is why
 * further keys are allowed here as objects; the importer refuses any but the block's own member.
 */
const FixtureObjectBase = Type.Object(
  {
    object: Opt(literals(OBJECT_KINDS)),
    id: Opt(IdString),
    /** Block type (blocks only). */
    type: Opt(Type.String({ pattern: '^[a-z0-9_]+$', maxLength: 100 })),
    /** Stored content of a page (`icon`, `cover`), database or data source (`title`, `properties`, …). */
    content: Opt(JsonObject),
    /** A page's values by property id, each as the API answers it (`{"type": "title", "title": […]}`). */
    properties: Opt(Type.Record(Type.String({ minLength: 1, maxLength: 200 }), JsonObject)),
    children: Opt(Type.Array(Type.Unsafe<unknown>({ $ref: NODE_REF }))),
    created_time: Opt(Time),
    created_by: Opt(IdString),
    last_edited_time: Opt(Time),
    last_edited_by: Opt(IdString),
    /** Moved to the trash itself (its descendants are then in the trash through it). */
    trashed: Opt(Type.Boolean()),
    is_locked: Opt(Type.Boolean()),
    is_archived: Opt(Type.Boolean()),
  },
  { additionalProperties: JsonObject },
);

export interface FixtureObject extends Omit<Static<typeof FixtureObjectBase>, 'children'> {
  children?: FixtureObject[];
  [member: string]: unknown;
}

export const FixtureUser = StrictObject({
  id: Opt(IdString),
  type: Opt(literals(['person', 'bot'] as const)),
  name: Opt(Nullable(Type.String({ maxLength: 200 }))),
  email: Opt(Nullable(Type.String({ maxLength: 200 }))),
  avatar_url: Opt(Nullable(Type.String({ maxLength: 2000 }))),
  email_verified: Opt(Type.Boolean()),
  meeting_notes_enabled: Opt(Type.Boolean()),
  created_time: Opt(Time),
});

export const FixtureConnection = StrictObject({
  id: Opt(IdString),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  kind: Opt(literals(CONNECTION_KINDS)),
  capabilities: Opt(Type.Array(literals(CONTENT_CAPABILITIES), { maxItems: 10 })),
  user_info: Opt(literals(USER_INFO_LEVELS)),
  /** The person a public or personal connection acts for. */
  user_id: Opt(Nullable(IdString)),
  /** The connection's bot user; made (named after the connection) when not among `users`. */
  bot_id: Opt(IdString),
  /** A token that then works as given (stored hashed, as every token). */
  token: Opt(Type.String({ minLength: 8, maxLength: 500 })),
  /** The stored SHA-256 of its token, hex: what an export writes, so the same token works after a re-import. */
  token_hash: Opt(Type.String({ pattern: '^[0-9a-f]{64}$' })),
  created_time: Opt(Time),
  revoked_time: Opt(Nullable(Time)),
  ai_credit_limit: Opt(Nullable(Type.Number({ minimum: 0 }))),
  ai_credits_used: Opt(Type.Number({ minimum: 0 })),
  /** Objects shared with the connection (its grants). */
  shares: Opt(Type.Array(IdString)),
});

export const FixtureComment = StrictObject({
  id: Opt(IdString),
  /** The page or block commented on. */
  parent_id: IdString,
  /** The discussion's thread; by default its own (a new discussion). */
  discussion_id: Opt(IdString),
  rich_text: Type.Array(JsonObject),
  attachments: Opt(Type.Array(JsonObject)),
  display_type: Opt(literals(['integration', 'user', 'custom'] as const)),
  display_name: Opt(Nullable(Type.String({ maxLength: 200 }))),
  created_by: Opt(IdString),
  created_time: Opt(Time),
  last_edited_time: Opt(Time),
});

export const FixtureFileUpload = StrictObject({
  id: Opt(IdString),
  /** The connection that uploaded it (it owns the upload). */
  connection_id: IdString,
  mode: Opt(literals(['single_part', 'multi_part', 'external_url'] as const)),
  status: Opt(literals(['pending', 'uploaded', 'expired', 'failed'] as const)),
  filename: Opt(Nullable(Type.String({ maxLength: 900 }))),
  content_type: Opt(Nullable(Type.String({ maxLength: 200 }))),
  number_of_parts: Opt(Nullable(Type.Integer({ minimum: 1 }))),
  created_time: Opt(Time),
  last_edited_time: Opt(Time),
  expiry_time: Opt(Nullable(Time)),
  external_url: Opt(Nullable(Type.String({ maxLength: 2000 }))),
  import_result: Opt(Nullable(JsonObject)),
  ...Bytes,
});

export const FixtureCustomEmoji = StrictObject({
  id: Opt(IdString),
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9_-]+$' }),
  content_type: Type.String({ minLength: 1, maxLength: 200 }),
  created_time: Opt(Time),
  ...Bytes,
});

export const FixtureTemplate = StrictObject({
  data_source_id: IdString,
  page_id: IdString,
  is_default: Opt(Type.Boolean()),
  created_time: Opt(Time),
});

export const FixtureView = StrictObject({
  id: Opt(IdString),
  database_id: IdString,
  data_source_id: Opt(Nullable(IdString)),
  dashboard_view_id: Opt(Nullable(IdString)),
  name: Type.String({ maxLength: 2000 }),
  type: Type.String({ minLength: 1, maxLength: 100 }),
  filter: Opt(Nullable(Type.Unknown())),
  sorts: Opt(Nullable(Type.Unknown())),
  quick_filters: Opt(Nullable(Type.Unknown())),
  configuration: Opt(Nullable(Type.Unknown())),
  created_time: Opt(Time),
  created_by: Opt(IdString),
  last_edited_time: Opt(Time),
  last_edited_by: Opt(IdString),
});

export const FixtureWorkspace = StrictObject({
  id: Opt(IdString),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  created_time: Opt(Time),
  /** The workspace's own bot, which authors what has no other author. */
  system_user_id: Opt(IdString),
  max_file_upload_bytes: Opt(Nullable(Type.Integer({ minimum: 0 }))),
  meeting_notes_enabled: Opt(Type.Boolean()),
  ai_credits: Opt(Nullable(Type.Number({ minimum: 0 }))),
  users: Opt(Type.Array(FixtureUser)),
  connections: Opt(Type.Array(FixtureConnection)),
  /** The objects at the workspace's top level, in order, each with its subtree. */
  content: Opt(Type.Array(Type.Unsafe<FixtureObject>({ $ref: NODE_REF }))),
  comments: Opt(Type.Array(FixtureComment)),
  file_uploads: Opt(Type.Array(FixtureFileUpload)),
  custom_emojis: Opt(Type.Array(FixtureCustomEmoji)),
  templates: Opt(Type.Array(FixtureTemplate)),
  views: Opt(Type.Array(FixtureView)),
});

export const FIXTURE_FORMAT = 'folio-fixture';
export const FIXTURE_VERSION = 1;

/** A whole fixture: the import body, and what an export answers. */
export const Fixture = Type.Unsafe<FixtureInput>({
  ...StrictObject({
    format: Opt(Type.Literal(FIXTURE_FORMAT)),
    version: Opt(Type.Literal(FIXTURE_VERSION)),
    workspaces: Type.Array(FixtureWorkspace, { minItems: 1 }),
  }),
  $defs: { object: FixtureObjectBase },
});

export type FixtureWorkspaceInput = Omit<Static<typeof FixtureWorkspace>, 'content'> & { content?: FixtureObject[] };
export interface FixtureInput {
  format?: typeof FIXTURE_FORMAT;
  version?: typeof FIXTURE_VERSION;
  workspaces: FixtureWorkspaceInput[];
}
export type FixtureUserInput = Static<typeof FixtureUser>;
export type FixtureConnectionInput = Static<typeof FixtureConnection>;
export type FixtureCommentInput = Static<typeof FixtureComment>;
export type FixtureFileUploadInput = Static<typeof FixtureFileUpload>;
export type FixtureCustomEmojiInput = Static<typeof FixtureCustomEmoji>;
export type FixtureTemplateInput = Static<typeof FixtureTemplate>;
export type FixtureViewInput = Static<typeof FixtureView>;

/** What an import answers: how many of each thing it wrote. */
export const ImportResult = Type.Object(
  {
    object: Type.Literal('import'),
    workspace_ids: Type.Array(Type.String()),
    counts: Type.Record(Type.String(), Type.Integer()),
    duration_ms: Type.Number(),
  },
  { additionalProperties: false },
);

export const ExportParams = StrictObject({ workspace_id: Type.String() });
