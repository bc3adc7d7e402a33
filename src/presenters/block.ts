import type { ObjectRow } from '../storage/schema.js';
import { blockDefinitionOf } from '../domain/blocks/registry.js';
import type { BlockView, ListView, Unreadable } from '../domain/views.js';
import type { Static } from 'typebox';
import type { BlockListResponse, BlockObject, WrittenBlockResponse } from '../schemas/blocks.js';
import type { MeetingNoteCreatedResponse, MeetingNotesBlock, QueryMeetingNotesResponse } from '../schemas/meetingNotes.js';
import { presentList } from './list.js';
import { presentParent } from './page.js';
import { partialUser, presentTimestamp } from './time.js';

/** Pages and databases under a page or block are its child_page and child_database blocks, same id. */
export function blockTypeOf(row: ObjectRow): string {
  if (row.object === 'page') return 'child_page';
  if (row.object === 'database') return 'child_database';
  return row.type ?? 'unsupported';
}

/** The type member, as the type's registry entry presents it (FACTS.md §9); a type the server does not know names itself. */
function presentMember(type: string, row: ObjectRow): Record<string, unknown> {
  return blockDefinitionOf(type)?.present(row) ?? { block_type: type };
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

/** The meeting-notes query's answer: its notes as the create answer shows one, and whether more matched. */
export function presentMeetingNotesQuery(view: { items: readonly BlockView[]; hasMore: boolean }): Static<typeof QueryMeetingNotesResponse> {
  return {
    results: view.items.map((item) => {
      const { parent: _parent, ...block } = presentBlock(item);
      return block as Static<typeof MeetingNotesBlock>;
    }),
    has_more: view.hasMore,
  };
}
