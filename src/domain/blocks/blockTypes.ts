import { WRITABLE_BLOCK_TYPES, type WritableBlockType } from '../../schemas/blocks.js';

const WRITABLE: ReadonlySet<string> = new Set(WRITABLE_BLOCK_TYPES);

export function isWritableBlockType(key: string): key is WritableBlockType {
  return WRITABLE.has(key);
}

/** Block types whose member holds `rich_text` (the 2022-02-22 rename applies to these). */
export const RICH_TEXT_BLOCK_TYPES: ReadonlySet<string> = new Set([
  'paragraph',
  'heading_1',
  'heading_2',
  'heading_3',
  'heading_4',
  'bulleted_list_item',
  'numbered_list_item',
  'to_do',
  'toggle',
  'quote',
  'callout',
  'code',
  'template',
]);

export const MEDIA_BLOCK_TYPES: ReadonlySet<string> = new Set(['image', 'video', 'audio', 'file', 'pdf']);

/**
 * What may be appended under a parent of each kind. Pages take any block except the two that
 * only live inside their container; tables hold rows and column lists hold columns only; a
 * type missing here (divider, code, media, …) holds nothing.
 */
export function acceptsChild(parentKind: string, childType: WritableBlockType): boolean {
  switch (parentKind) {
    case 'table':
      return childType === 'table_row';
    case 'column_list':
      return childType === 'column';
    case 'page':
    case 'child_page':
    case 'paragraph':
    case 'heading_1':
    case 'heading_2':
    case 'heading_3':
    case 'heading_4':
    case 'bulleted_list_item':
    case 'numbered_list_item':
    case 'to_do':
    case 'toggle':
    case 'quote':
    case 'callout':
    case 'synced_block':
    case 'column':
      return childType !== 'table_row' && childType !== 'column';
    default:
      return false;
  }
}
