/**
 * Row types of every table, for Kysely. Both dialects store the same shapes: text ids (UUIDs),
 * ISO-8601 UTC timestamps as text (they sort correctly as strings), JSON as text and booleans
 * as 0/1 integers, so repositories need no dialect branches for plain reads and writes.
 */
import type { Generated, Insertable, Selectable } from 'kysely';

export interface WorkspaceTable {
  id: string;
  name: string;
  /** Bot user that authors what the admin plane creates. */
  system_user_id: string;
  created_time: string;
  /** The operator's per-file limit for this workspace; null: the server's default. */
  max_file_upload_bytes: number | null;
  /** The operator's switch for AI meeting notes in this workspace (migration 007). */
  meeting_notes_enabled: number;
  /** AI credits left; null: the operator set no limit. */
  ai_credits: number | null;
}

export interface UserTable {
  id: string;
  workspace_id: string;
  type: 'person' | 'bot';
  name: string | null;
  avatar_url: string | null;
  email: string | null;
  email_verified: number;
  meeting_notes_enabled: number;
  created_time: string;
}

export interface ConnectionTable {
  id: string;
  workspace_id: string;
  name: string;
  kind: 'internal' | 'public' | 'personal';
  /** JSON array of content/comment capabilities. */
  capabilities: string;
  user_info: 'no_user_info' | 'user_info_without_email' | 'user_info_with_email';
  /** The person the token acts for (public and personal); what `me` resolves to. */
  user_id: string | null;
  bot_id: string;
  /** SHA-256 of the token, hex; the token itself is never stored. */
  token_hash: string;
  created_time: string;
  revoked_time: string | null;
  /** The operator's cap on the AI credits this connection may spend; null: none (migration 007). */
  ai_credit_limit: number | null;
  ai_credits_used: number;
}

export interface GrantTable {
  connection_id: string;
  object_id: string;
  created_time: string;
}

export type ObjectKindColumn = 'page' | 'block' | 'database' | 'data_source';
export type ParentType = 'workspace' | 'page_id' | 'block_id' | 'database_id' | 'data_source_id';

/** Pages, blocks, databases and data sources: one tree, so sharing and trash walk one closure table. */
export interface ObjectTable {
  id: string;
  workspace_id: string;
  object: ObjectKindColumn;
  /** Block type for blocks; null for pages, databases and data sources. */
  type: string | null;
  parent_type: ParentType;
  parent_id: string | null;
  /** Order among siblings. */
  position: number;
  /** Plain-text title of pages, databases and data sources: what search matches. */
  title: string;
  /** JSON: the type-specific payload (block content, icon, cover, database title and description …). */
  content: string;
  /** Effective trash state: true when this object or an ancestor was trashed. */
  in_trash: number;
  /** Trashed explicitly (as opposed to through an ancestor). */
  trashed: number;
  is_locked: number;
  is_archived: number;
  created_time: string;
  created_by: string;
  last_edited_time: string;
  last_edited_by: string;
}

export interface ObjectAncestorTable {
  ancestor_id: string;
  descendant_id: string;
  depth: number;
}

/**
 * One row per page and property: the API value as JSON plus typed columns that SQL can filter,
 * sort and index (the query filter compiler targets these columns).
 */
export interface PropertyValueTable {
  page_id: string;
  property_id: string;
  data_source_id: string | null;
  value: string;
  text_value: string | null;
  /** text_value case-folded at write (migration 005), for case-insensitive conditions. */
  text_folded: string | null;
  number_value: number | null;
  date_start: string | null;
  date_end: string | null;
  bool_value: number | null;
}

/** Multi-valued properties (multi_select names, people, relations, files): one row per element. */
export interface PropertyValueItemTable {
  page_id: string;
  property_id: string;
  item: string;
}

export interface SettingTable {
  key: string;
  value: string;
}

export type FileUploadMode = 'single_part' | 'multi_part' | 'external_url';
export type FileUploadStatus = 'pending' | 'uploaded' | 'expired' | 'failed';

/** One upload; owned by the connection that created it (migration 006). */
export interface FileUploadTable {
  id: string;
  workspace_id: string;
  connection_id: string;
  /** The connection's bot user. */
  created_by: string;
  created_time: string;
  last_edited_time: string;
  mode: FileUploadMode;
  status: FileUploadStatus;
  filename: string | null;
  content_type: string | null;
  content_length: number | null;
  number_of_parts: number | null;
  /** Creation + 1 hour; null once attached. */
  expiry_time: string | null;
  external_url: string | null;
  /** JSON of the wire `file_import_result` (external_url mode), once the import ended. */
  import_result: string | null;
}

/** Stored bytes of an upload: `writing` until its bytes are durable, then `stored`. */
export interface FileBlobTable {
  key: string;
  upload_id: string;
  /** 1 for a single-part or imported file; the part's number in a multi-part one; null while writing. */
  part_number: number | null;
  size: number | null;
  state: 'writing' | 'stored';
  created_time: string;
}

/** The database file store's bytes, in chunks of at most 1 MiB. */
export interface FileChunkTable {
  key: string;
  seq: number;
  data: Uint8Array;
}

export type JobState = 'queued' | 'running' | 'done' | 'failed';

/** Durable background work (migration 007, src/storage/repositories/jobs.ts). */
export interface JobTable {
  id: string;
  /** What runs it: a key of the worker's handlers (src/worker/). */
  kind: string;
  workspace_id: string;
  /** The object the job works on (a meeting notes block). */
  subject_id: string;
  /** JSON: the job's input, fixed at enqueue. */
  payload: string;
  /** JSON: the job's checkpoint, written with what each step wrote. */
  progress: string;
  state: JobState;
  /** Claims so far, counted as the job is claimed. */
  attempts: number;
  max_attempts: number;
  /** Not claimed before this instant (retry backoff). */
  run_after: string;
  /** A running job whose lease passed is taken over by the next claim. */
  lease_until: string | null;
  worker_id: string | null;
  last_error: string | null;
  created_time: string;
  finished_time: string | null;
}

export type CommentParentType = 'page_id' | 'block_id';
export type CommentDisplayType = 'integration' | 'user' | 'custom';

/** A comment on a page or a block; its discussion is the comments sharing `discussion_id` (migration 008). */
export interface CommentTable {
  id: string;
  workspace_id: string;
  discussion_id: string;
  parent_type: CommentParentType;
  parent_id: string;
  /** Order among the comments on `parent_id`, oldest first. */
  position: number;
  /** JSON: the response's rich text items. */
  rich_text: string;
  /** JSON: `[{category, file: {url, expiry_time}}]`, urls as hosted-file references. */
  attachments: string;
  display_type: CommentDisplayType;
  /** The name `display_name` resolved to when written. */
  display_name: string | null;
  /** The writing connection's bot user. */
  created_by: string;
  created_time: string;
  last_edited_time: string;
}

/** A page of a data source marked as a template by the operator (migration 009). */
export interface DataSourceTemplateTable {
  data_source_id: string;
  page_id: string;
  workspace_id: string;
  is_default: number;
  created_time: string;
}

/** A workspace's custom emoji; its image is in the file store under `file_key` (migration 009). */
export interface CustomEmojiTable {
  id: string;
  workspace_id: string;
  name: string;
  content_type: string;
  size: number;
  file_key: string;
  created_time: string;
}

export interface DB {
  workspaces: WorkspaceTable;
  users: UserTable;
  connections: ConnectionTable;
  grants: GrantTable;
  objects: ObjectTable;
  object_ancestors: ObjectAncestorTable;
  property_values: PropertyValueTable;
  property_value_items: PropertyValueItemTable;
  settings: SettingTable;
  file_uploads: FileUploadTable;
  file_blobs: FileBlobTable;
  file_chunks: FileChunkTable;
  jobs: JobTable;
  comments: CommentTable;
  async_tasks: AsyncTaskTable;
  database_views: DatabaseViewTable;
  view_queries: ViewQueryTable;
  data_source_templates: DataSourceTemplateTable;
  custom_emojis: CustomEmojiTable;
  integrations: IntegrationTable;
  sign_in_links: SignInLinkTable;
  browser_sessions: BrowserSessionTable;
  oauth_codes: OAuthCodeTable;
  integration_connections: IntegrationConnectionTable;
  oauth_refresh_tokens: OAuthRefreshTokenTable;
  webhook_subscriptions: WebhookSubscriptionTable;
  webhook_events: WebhookEventTable;
  webhook_deliveries: WebhookDeliveryTable;
}

export type JobRow = Selectable<JobTable>;

export type WorkspaceRow = Selectable<WorkspaceTable>;
export type UserRow = Selectable<UserTable>;
export type ConnectionRow = Selectable<ConnectionTable>;
export type FileUploadRow = Selectable<FileUploadTable>;
export type FileBlobRow = Selectable<FileBlobTable>;
export type ObjectRow = Selectable<ObjectTable>;
export type NewObject = Insertable<ObjectTable>;
export type CommentRow = Selectable<CommentTable>;

/** A request run in the background (`allow_async`; migration 011, src/storage/repositories/asyncTasks.ts). */
export interface AsyncTaskTable {
  id: string;
  workspace_id: string;
  /** The connection that sent it: the only one that sees it, and the one it runs as. */
  connection_id: string;
  /** The operation's name, e.g. "POST /v1/pages" (src/commands/asyncTasks/operations.ts). */
  operation: string;
  /** JSON: the checked request (body, path parameters, query), newest version. */
  request: string;
  /** `queued` until it ends (the job says whether it runs or retries), then `succeeded` or `failed`. */
  status: 'queued' | 'succeeded' | 'failed';
  /** JSON: the synchronous response body at the newest version and its older-version facts. */
  result: string | null;
  /** JSON: the error body the synchronous request would have answered with. */
  error: string | null;
  created_time: string;
  completed_time: string | null;
}

export type AsyncTaskRow = Selectable<AsyncTaskTable>;

/** A view of a database (migration 010): a tab of the database, or a widget of a dashboard view. */
export interface DatabaseViewTable {
  id: string;
  workspace_id: string;
  /** The database whose tab it is; for a dashboard widget, the database of its data source. */
  database_id: string;
  /** null for dashboard views, which show widgets rather than a data source. */
  data_source_id: string | null;
  /** Set on the widget views of a dashboard; null on tabs. */
  dashboard_view_id: string | null;
  name: string;
  type: string;
  /** Order among the database's tabs. */
  position: number;
  /** JSON, or null for none. */
  filter: string | null;
  sorts: string | null;
  quick_filters: string | null;
  configuration: string | null;
  created_time: string;
  created_by: string;
  last_edited_time: string;
  last_edited_by: string;
}

/** A view query's cached result (migration 010): the page ids in order, kept until `expires_at`. */
export interface ViewQueryTable {
  id: string;
  view_id: string;
  workspace_id: string;
  /** The connection that ran it: another connection may see other pages, so it cannot page it. */
  connection_id: string;
  /** JSON array of page ids. */
  page_ids: string;
  total_count: number;
  /** 1 when the result was cut at the cap. */
  incomplete: number;
  created_time: string;
  expires_at: string;
}

export type DatabaseViewRow = Selectable<DatabaseViewTable>;
export type ViewQueryRow = Selectable<ViewQueryTable>;
export type DataSourceTemplateRow = Selectable<DataSourceTemplateTable>;
export type CustomEmojiRow = Selectable<CustomEmojiTable>;

/** A public integration, server-wide (migration 012); `id` is stable, the secret rotates. */
export interface IntegrationTable {
  id: string;
  client_id: string;
  /** SHA-256 of the client secret, hex; the secret itself is never stored. */
  secret_hash: string;
  name: string;
  /** JSON array of the registered redirect URIs. */
  redirect_uris: string;
  /** JSON array: content/comment capabilities and one user-information level, as connections take them. */
  capabilities: string;
  webhook_url: string | null;
  created_time: string;
}

/** A one-time link that signs a browser in as a workspace person (migration 012). */
export interface SignInLinkTable {
  token_hash: string;
  workspace_id: string;
  user_id: string;
  expires_at: string;
  used_time: string | null;
}

/** A browser signed in to the consent page, by the hash of its cookie (migration 012). */
export interface BrowserSessionTable {
  token_hash: string;
  workspace_id: string;
  user_id: string;
  created_time: string;
  expires_at: string;
}

/** An approved grant waiting for its token exchange (migration 012). */
export interface OAuthCodeTable {
  code_hash: string;
  integration_id: string;
  workspace_id: string;
  user_id: string;
  /** JSON array of the objects the person chose to share. */
  page_ids: string;
  /** Where the code was sent: the authorize request's, or the integration's only one. */
  redirect_uri: string;
  /** 1 when the authorize request named it (the token request must repeat it, FACTS.md §10.9). */
  redirect_uri_given: number;
  expires_at: string;
  used_time: string | null;
  created_time: string;
}

/** A public connection's integration (migration 012); the connection row names the approving user. */
export interface IntegrationConnectionTable {
  connection_id: string;
  integration_id: string;
  workspace_id: string;
  user_id: string;
  /** When the current access token was issued: introspection's `iat`. */
  access_issued_time: string;
  created_time: string;
}

/** A public connection's refresh token; a refresh revokes it and issues the next (migration 012). */
export interface OAuthRefreshTokenTable {
  token_hash: string;
  connection_id: string;
  integration_id: string;
  created_time: string;
  revoked_time: string | null;
}

export type IntegrationRow = Selectable<IntegrationTable>;
export type OAuthCodeRow = Selectable<OAuthCodeTable>;
export type IntegrationConnectionRow = Selectable<IntegrationConnectionTable>;
export type BrowserSessionRow = Selectable<BrowserSessionTable>;
/** A webhook subscription (migration 013): a receiver URL for a connection's events. */
export interface WebhookSubscriptionTable {
  id: string;
  /** Null for an integration's subscription (migration 014): it hears every workspace the integration is installed in. */
  workspace_id: string | null;
  connection_id: string | null;
  /** A public integration's subscription (migration 012's `integrations`); exactly one of this and `connection_id`. */
  integration_id: string | null;
  url: string;
  /** JSON array of event types; null: every type the subscription's version does not deprecate. */
  event_types: string | null;
  api_version: string;
  status: 'pending' | 'active';
  verification_token: string;
  created_time: string;
  verified_time: string | null;
}

/** The outbox (migration 013): one event a write recorded in its own transaction. */
export interface WebhookEventTable {
  seq: Generated<number>;
  id: string;
  workspace_id: string;
  type: string;
  entity_id: string;
  entity_type: string;
  /** The connection whose request caused it. */
  connection_id: string | null;
  /** JSON: `[{id, type}]`. */
  authors: string;
  /** JSON: the event's `data`; null for types that carry none. */
  data: string | null;
  timestamp: string;
  dispatched: number;
}

/** One event (or several aggregated ones) for one subscription, and its attempts (migration 013). */
export interface WebhookDeliveryTable {
  id: string;
  subscription_id: string;
  workspace_id: string;
  /** The payload's `id`: the first event's id. */
  event_id: string;
  /** The first event's `seq`: deliveries of one entity go out in this order. */
  event_seq: number;
  type: string;
  entity_id: string;
  entity_type: string;
  authors: string;
  data: string | null;
  /** The latest aggregated event's time. */
  timestamp: string;
  /** How many events it carries (more than one when aggregated). */
  events: number;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** By the server's clock: when it is due (again); null once it ended. */
  next_attempt_time: string | null;
  response_status: number | null;
  latency_ms: number | null;
  last_error: string | null;
  created_time: string;
  delivered_time: string | null;
}

export type WebhookSubscriptionRow = Selectable<WebhookSubscriptionTable>;
export type WebhookEventRow = Selectable<WebhookEventTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
