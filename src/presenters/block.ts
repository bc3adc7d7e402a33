import type { Db } from '../storage/db.js';
import type { ObjectRow } from '../storage/schema.js';
import { parseContent, type BlockContent } from '../domain/contentShapes.js';
import { parentsWithChildren } from '../storage/repositories/blocks.js';
import { findObjects } from '../storage/repositories/pageValues.js';
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

export interface BlockFacts {
  hasChildren: boolean;
  /** For a page in a data source: the database holding that source (its parent names both). */
  databaseId?: string | null;
}

/** The block object at the newest version (FACTS.md §9 "Block (common)"), built field by field. */
export function presentBlock(row: ObjectRow, facts: BlockFacts): Record<string, unknown> {
  const type = blockTypeOf(row);
  return {
    object: 'block',
    id: row.id,
    parent: presentParent(row, facts.databaseId),
    created_time: presentTimestamp(row.created_time),
    last_edited_time: presentTimestamp(row.last_edited_time),
    created_by: partialUser(row.created_by),
    last_edited_by: partialUser(row.last_edited_by),
    has_children: facts.hasChildren,
    in_trash: row.in_trash === 1,
    type,
    [type]: presentMember(type, row),
  };
}

/** What a connection without read content gets back from a write (FACTS.md §2 capabilities). */
export function presentPartialBlock(row: Pick<ObjectRow, 'id'>): { object: 'block'; id: string } {
  return { object: 'block', id: row.id };
}

/** The block whose children a synced copy shows: the original for a copy, else the block itself. */
export function childrenSourceId(row: ObjectRow): string {
  if (row.object !== 'block' || row.type !== 'synced_block') return row.id;
  const from = parseContent<{ synced_from?: { block_id?: string } | null }>(row.content).synced_from;
  return from?.block_id ?? row.id;
}

/** Presents a list of blocks with two queries at most: has_children for all, and databases of data source parents. */
export async function presentBlocks(db: Db, rows: readonly ObjectRow[]): Promise<Record<string, unknown>[]> {
  const sources = rows.filter((r) => r.parent_type === 'data_source_id' && r.parent_id).map((r) => r.parent_id!);
  const [withChildren, sourceRows] = await Promise.all([parentsWithChildren(db, rows.map(childrenSourceId)), findObjects(db, sources)]);
  const databaseOf = new Map(sourceRows.map((s) => [s.id, s.parent_id]));
  return rows.map((row) =>
    presentBlock(row, {
      hasChildren: withChildren.has(childrenSourceId(row)),
      databaseId: row.parent_type === 'data_source_id' && row.parent_id ? (databaseOf.get(row.parent_id) ?? null) : undefined,
    }),
  );
}

/**
 * Before 2021-08-16, append-block-children answered with the parent block instead of the list.
 * Response converters see only the body, so the HEAD answer carries the parent block under this
 * key: it is downgraded with the rest by every newer change module, the 2021-08-16 module returns
 * it, and the append route deletes the key before serialising, so no caller ever sees it.
 */
export const APPEND_PARENT_KEY = 'folio:parent_block';
