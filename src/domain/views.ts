import type { CommentRow, FileUploadRow, FileUploadStatus, ObjectRow, UserRow, WorkspaceRow } from '../storage/schema.js';
import type { PresentedValueRow } from '../storage/repositories/propertyValues.js';
import type { Property } from './properties/schemaTypes.js';
import type { StoredValue } from './properties/storedValue.js';
import type { MeetingNotesMember } from './meetingNotes/meetingNotesBlock.js';

/**
 * What commands return: the rows and values a response is made of, loaded by the command (in its
 * transaction where it has one). Presenters turn them into the newest-version wire shape without
 * reading the store, so a worker can run a command without presenting anything.
 */

/** A page and what it shows. */
export interface PageView {
  kind: 'page';
  row: ObjectRow;
  /** Its values as read now (computed ones brought up to date). */
  values: readonly PresentedValueRow[];
  /** Property id → name, in schema order, for a page in a data source; absent outside one (only "title"). */
  names?: ReadonlyMap<string, string>;
  /** The database holding the page's data source. */
  databaseId: string | null;
  /** The page an object under a block sits in; null when its parent is not a block. */
  enclosingPageId: string | null;
}

/** A block, or a page or database seen as one. */
export interface BlockView {
  kind: 'block';
  row: ObjectRow;
  hasChildren: boolean;
  /** For a page in a data source: the database holding that source. */
  databaseId?: string | null;
}

/** A database and its data sources (trashed ones included), in position order. */
export interface DatabaseView {
  kind: 'database';
  row: ObjectRow;
  dataSources: readonly ObjectRow[];
}

/** A data source and the database holding it. */
export interface DataSourceView {
  kind: 'data_source';
  row: ObjectRow;
  database: ObjectRow | undefined;
}

/** What the connection's own bot user shows beyond other users (`users/me`). */
export interface BotView {
  workspace: WorkspaceRow;
  /** The person a public or personal connection acts for; null for internal connections. */
  owner: UserRow | null;
  maxFileUploadBytes: number;
}

/** A file upload with what its row alone does not say: its status now, and the parts sent so far. */
export interface FileUploadView {
  upload: FileUploadRow;
  /** `expired` once the expiry passed, whatever the row says (the sweeper marks rows later). */
  status: FileUploadStatus;
  /** Multi-part uploads: the parts stored so far. */
  partsSent: number;
}

/** A user; the caller's own bot comes with its bot details. */
export interface UserView {
  user: UserRow;
  bot?: BotView;
}

/** The server's clock as the test clock shows it: the time now, and whether it is fixed. */
export interface ClockView {
  now: Date;
  fixed: boolean;
}

/** A write answered to a connection that may write but not read: only the id is shown (FACTS.md §2). */
export interface Unreadable {
  kind: 'unreadable';
  id: string;
}

/** One page of a listing, with the cursor of the next. */
export interface ListView<T> {
  items: readonly T[];
  nextCursor: string | null;
}

/** A page of query results; `incomplete` when the listing stopped at the 10,000-result cap (FACTS.md §3). */
export interface QueryView extends ListView<PageView> {
  incomplete: boolean;
  /** Whether the answer can change with the clock alone (runListing.ts): never kept. */
  readsClock: boolean;
}

/** One property value of a page as GET /v1/pages/{id}/properties/{property_id} reads it (FACTS.md §3). */
export interface PropertyValueView {
  row: ObjectRow;
  property: Property;
  value: StoredValue;
  /** For list types and rollups: the slice asked for, and the cursor of the next. */
  slice?: { offset: number; size: number; nextCursor: string | null };
}

/** A comment as stored (src/storage/repositories/comments.ts); its row carries all it shows. */
export interface CommentView {
  kind: 'comment';
  row: CommentRow;
}

/** An async task as polling shows it: `status` already read from its job while it has not ended. */
export interface AsyncTaskView {
  id: string;
  operation: string;
  createdTime: string;
  status: 'queued' | 'running' | 'retrying' | 'succeeded' | 'failed';
  /** When succeeded: the synchronous response body at the newest version, and the facts older versions need. */
  result: { body: Record<string, unknown>; facts: Record<string, unknown> } | null;
  /** When failed: the error body the synchronous request would have answered with. */
  error: { object: 'error'; status: number; code: string; message: string; additional_data?: Record<string, string | string[]> } | null;
}

/** A meeting note as the operator's console reads it (src/commands/admin/meetingNotes.ts). */
export interface MeetingNoteView {
  row: ObjectRow;
  member: MeetingNotesMember;
  /** The top-level page or database it sits under. */
  rootId: string;
  recording: { url: string; expiry_time: string; filename: string; content_type: string | null } | null;
}
