import type { ObjectRow } from '../storage/schema.js';
import { parseContent, type BlockContent } from '../domain/contentShapes.js';
import type { BlockView, ListView, Unreadable } from '../domain/views.js';
import type { Static } from 'typebox';
import type { BlockListResponse, BlockObject, WrittenBlockResponse } from '../schemas/blocks.js';
import type { MeetingNoteCreatedResponse } from '../schemas/meetingNotes.js';
import { presentList } from './list.js';
import { presentParent } from './page.js';
import { partialUser, presentTimestamp } from './time.js';

/** The fields of each type member, in the order the service writes them (FACTS.md §9). */
const MEMBER_FIELDS: Record<string, readonly string[]> = {
  paragraph: ['rich_text', 'color', 'icon'],
  heading_1: ['rich_text', 'is_toggleable', 'color'],
  heading_2: ['rich_text', 'is_toggleable', 'color'],
  heading_3: ['rich_text', 'is_toggleable', 'color'],
  heading_4: ['rich_text', 'is_toggleable', 'color'],
  bulleted_list_item: ['rich_text', 'color'],
  numbered_list_item: ['rich_text', 'color', 'list_start_index', 'list_format'],
  to_do: ['rich_text', 'checked', 'color'],
  toggle: ['rich_text', 'color'],
  quote: ['rich_text', 'color'],
  callout: ['rich_text', 'icon', 'color'],
  code: ['caption', 'rich_text', 'language'],
  divider: [],
  breadcrumb: [],
  column_list: [],
  equation: ['expression'],
  image: ['caption', 'type', 'external', 'file'],
  video: ['caption', 'type', 'external', 'file'],
  audio: ['caption', 'type', 'external', 'file'],
  pdf: ['caption', 'type', 'external', 'file'],
  file: ['caption', 'type', 'external', 'file', 'name'],
  bookmark: ['caption', 'url'],
  embed: ['caption', 'url'],
  table: ['table_width', 'has_column_header', 'has_row_header'],
  table_row: ['cells'],
  column: ['width_ratio'],
  synced_block: ['synced_from'],
  link_to_page: ['type', 'page_id', 'database_id', 'comment_id'],
  table_of_contents: ['color'],
  meeting_notes: ['title', 'status', 'children', 'calendar_event', 'recording'],
};

/** Pages and databases under a page or block are its child_page and child_database blocks, same id. */
export function blockTypeOf(row: ObjectRow): string {
  if (row.object === 'page') return 'child_page';
  if (row.object === 'database') return 'child_database';
  return row.type ?? 'unsupported';
}

function presentMember(type: string, row: ObjectRow): Record<string, unknown> {
  if (type === 'child_page' || type === 'child_database') return { title: row.title };
  const content = parseContent<BlockContent>(row.content);
  const fields = MEMBER_FIELDS[type];
  if (!fields) return { block_type: type };
  const member: Record<string, unknown> = {};
  for (const field of fields) if (content[field] !== undefined) member[field] = content[field];
  return member;
}

/** The block object at the newest version (FACTS.md §9 "Block (common)"), built field by field. */
export function presentBlock(view: BlockView): Static<typeof BlockObject> {
  const { row } = view;
  const type = blockTypeOf(row);
  return {
    object: 'block',
    id: row.id,
    parent: presentParent(row, view.databaseId),
    created_time: presentTimestamp(row.created_time),
    last_edited_time: presentTimestamp(row.last_edited_time),
    created_by: partialUser(row.created_by),
    last_edited_by: partialUser(row.last_edited_by),
    has_children: view.hasChildren,
    in_trash: row.in_trash === 1,
    type,
    [type]: presentMember(type, row),
  };
}

/**
 * A block a write returns: in full with read content, otherwise only `{object, id}` (FACTS.md §2:
 * update and insert do not imply reading; the SDK types these answers as partial blocks).
 */
export function presentWrittenBlock(view: BlockView | Unreadable): Static<typeof WrittenBlockResponse> {
  if (view.kind === 'unreadable') return { object: 'block', id: view.id };
  return presentBlock(view);
}

/** A list of blocks (children listings and append answers, FACTS.md §3). */
export function presentBlockList(list: ListView<BlockView | Unreadable>): Static<typeof BlockListResponse> {
  return presentList('block', list.items.map(presentWrittenBlock), list.nextCursor);
}

/**
 * The create-meeting-note answer: the block without `parent` (spec, "Meeting notes block (full
 * response)": no other fields), or `{object, id}` without read content.
 */
export function presentCreatedMeetingNote(view: BlockView | Unreadable): Static<typeof MeetingNoteCreatedResponse> {
  if (view.kind === 'unreadable') return { object: 'block', id: view.id };
  const { parent: _parent, ...block } = presentBlock(view);
  return block;
}
