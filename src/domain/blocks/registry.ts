import type { BlockTypeDefinition, ReadOnlyBlockTypeDefinition, WritableBlockTypeDefinition } from './types/definition.js';
import { bulletedListItem, numberedListItem } from './types/listItems.js';
import { code } from './types/code.js';
import { column, columnList } from './types/columns.js';
import { bookmark, embed } from './types/embeds.js';
import { linkToPage } from './types/linkToPage.js';
import { audio, file, image, pdf, video } from './types/media.js';
import { childDatabase, childPage, meetingNotes, template } from './types/readOnly.js';
import { breadcrumb, divider, equation, tableOfContents } from './types/simple.js';
import { syncedBlock } from './types/syncedBlock.js';
import { table, tableRow } from './types/table.js';
import { callout, heading1, heading2, heading3, heading4, paragraph, quote, toDo, toggle } from './types/text.js';

/** Block types an integration may create or edit (FACTS.md §9; the SDK's BlockObjectRequest). */
export type WritableBlockType =
  | 'paragraph'
  | 'heading_1'
  | 'heading_2'
  | 'heading_3'
  | 'heading_4'
  | 'bulleted_list_item'
  | 'numbered_list_item'
  | 'to_do'
  | 'toggle'
  | 'quote'
  | 'callout'
  | 'code'
  | 'divider'
  | 'equation'
  | 'image'
  | 'video'
  | 'audio'
  | 'file'
  | 'pdf'
  | 'bookmark'
  | 'embed'
  | 'table'
  | 'table_row'
  | 'column_list'
  | 'column'
  | 'synced_block'
  | 'link_to_page'
  | 'table_of_contents'
  | 'breadcrumb';

/** Types that are only ever read: pages and databases seen as blocks, meeting notes (own endpoint), templates. */
export type ReadOnlyBlockType = 'child_page' | 'child_database' | 'meeting_notes' | 'template';
export type BlockType = WritableBlockType | ReadOnlyBlockType;

/**
 * Every rule of every block type, by type: the one place a type is defined. The mapped type makes
 * a type of the unions above without a definition a compile error, a writable type without a
 * request part one too, and an object literal may not name a type outside them. The order is the
 * order request schemas and messages list the types in.
 */
export const BLOCK_TYPE_DEFINITIONS: {
  readonly [T in BlockType]: T extends WritableBlockType ? WritableBlockTypeDefinition : ReadOnlyBlockTypeDefinition;
} = {
  paragraph,
  heading_1: heading1,
  heading_2: heading2,
  heading_3: heading3,
  heading_4: heading4,
  bulleted_list_item: bulletedListItem,
  numbered_list_item: numberedListItem,
  to_do: toDo,
  toggle,
  quote,
  callout,
  code,
  divider,
  equation,
  image,
  video,
  audio,
  file,
  pdf,
  bookmark,
  embed,
  table,
  table_row: tableRow,
  column_list: columnList,
  column,
  synced_block: syncedBlock,
  link_to_page: linkToPage,
  table_of_contents: tableOfContents,
  breadcrumb,
  child_page: childPage,
  child_database: childDatabase,
  meeting_notes: meetingNotes,
  template,
};

/** By name, for type names read from requests and stored rows (a Map, so `constructor` or `__proto__` find nothing). */
const byName: ReadonlyMap<string, BlockTypeDefinition> = new Map(Object.entries(BLOCK_TYPE_DEFINITIONS));

/** The definition of a block type, or undefined for a name that is none. */
export function blockDefinitionOf(type: string): BlockTypeDefinition | undefined {
  return byName.get(type);
}

/** The types whose definition passes `test`, in registry order: every list of block types is one of these. */
export function blockTypesWhere(test: (definition: BlockTypeDefinition) => boolean): BlockType[] {
  return (Object.keys(BLOCK_TYPE_DEFINITIONS) as BlockType[]).filter((type) => test(BLOCK_TYPE_DEFINITIONS[type]));
}

/** The types a request may write, in registry order. */
export const WRITABLE_BLOCK_TYPES = blockTypesWhere((d) => d.request !== null) as readonly WritableBlockType[];
const WRITABLE: ReadonlySet<string> = new Set(WRITABLE_BLOCK_TYPES);

export function isWritableBlockType(key: string): key is WritableBlockType {
  return WRITABLE.has(key);
}

/** The definition of a writable type. */
export function writableDefinition(type: WritableBlockType): WritableBlockTypeDefinition {
  return BLOCK_TYPE_DEFINITIONS[type];
}
