import type { BlockContent } from '../contentShapes.js';
import { normalizeRichText, type MentionResolver, type RichTextItem } from '../richText.js';
import type { RichTextItemInput } from '../../schemas/richText.js';
import type { BlockIconInput, WritableBlockType } from '../../schemas/blocks.js';
import { normalizeId } from '../../ids/ids.js';
import { hostedFilename } from '../files/hostedFiles.js';

/**
 * Request members → the stored member, which is already the response member at HEAD (FACTS.md
 * §9 per-type shapes): rich text normalised (plain_text, href), defaults filled in, ids
 * canonical. The presenter then only has to pick fields.
 */

type Member = Record<string, unknown>;

const canonical = (id: unknown) => normalizeId(String(id)) ?? String(id);

export function presentIcon(icon: BlockIconInput | null | undefined): Record<string, unknown> | null {
  if (!icon) return null;
  if ('emoji' in icon) return { type: 'emoji', emoji: icon.emoji };
  if ('external' in icon) return { type: 'external', external: { url: icon.external.url } };
  if ('custom_emoji' in icon) {
    const emoji = icon.custom_emoji;
    return { type: 'custom_emoji', custom_emoji: { id: canonical(emoji.id), name: emoji.name ?? '', url: emoji.url ?? '' } };
  }
  if ('icon' in icon) return { type: 'icon', icon: { name: icon.icon.name, color: icon.icon.color ?? 'gray' } };
  // An attached upload (src/commands/fileUploads/attachFileUploads.ts); unattached ones were
  // refused before this point (checkBlockTree / the update command).
  if ('file' in icon) return { type: 'file', file: (icon as { file: unknown }).file };
  return null;
}

/** A file block shows a name; without one given, the last segment of its link. */
function fileName(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last) : '';
  } catch {
    return '';
  }
}

function linkTarget(member: Member): Record<string, unknown> {
  for (const key of ['page_id', 'database_id', 'comment_id'] as const) {
    if (key in member) return { type: key, [key]: canonical(member[key]) };
  }
  return {};
}

function syncedFrom(value: unknown): Record<string, unknown> | null {
  if (!value || typeof value !== 'object') return null;
  return { type: 'block_id', block_id: canonical((value as { block_id: unknown }).block_id) };
}

/**
 * Builds the stored member of a new block, or of an edited one: `base` is the stored member
 * (empty for a new block) and every field given in `input` replaces its counterpart; omitted
 * fields keep their stored value or, for a new block, the default (FACTS.md §2, update-a-block).
 */
export async function buildBlockContent(type: WritableBlockType, input: Member, resolver: MentionResolver, base: BlockContent = {}): Promise<BlockContent> {
  const rich = async (key: string): Promise<RichTextItem[]> =>
    key in input ? normalizeRichText(input[key] as RichTextItemInput[], resolver) : ((base[key] as RichTextItem[] | undefined) ?? []);
  const keep = <T>(key: string, fallback: T): T => (key in input ? (input[key] as T) : ((base[key] as T | undefined) ?? fallback));
  const color = () => keep('color', 'default');
  switch (type) {
    case 'paragraph':
      return {
        rich_text: await rich('rich_text'),
        color: color(),
        icon: 'icon' in input ? presentIcon(input.icon as BlockIconInput | null) : (base.icon ?? null),
      };
    case 'callout':
      return {
        rich_text: await rich('rich_text'),
        icon: 'icon' in input ? presentIcon(input.icon as BlockIconInput | null) : (base.icon ?? null),
        color: color(),
      };
    case 'heading_1':
    case 'heading_2':
    case 'heading_3':
    case 'heading_4':
      return { rich_text: await rich('rich_text'), is_toggleable: keep('is_toggleable', false), color: color() };
    case 'bulleted_list_item':
    case 'toggle':
    case 'quote':
      return { rich_text: await rich('rich_text'), color: color() };
    case 'numbered_list_item': {
      const out: BlockContent = { rich_text: await rich('rich_text'), color: color() };
      const start = keep<number | undefined>('list_start_index', undefined);
      const format = keep<string | undefined>('list_format', undefined);
      if (start !== undefined) out.list_start_index = start;
      if (format !== undefined) out.list_format = format;
      return out;
    }
    case 'to_do':
      return { rich_text: await rich('rich_text'), checked: keep('checked', false), color: color() };
    case 'code':
      return { caption: await rich('caption'), rich_text: await rich('rich_text'), language: keep('language', 'plain text') };
    case 'divider':
    case 'breadcrumb':
    case 'column_list':
      return {};
    case 'equation':
      return { expression: keep('expression', '') };
    case 'image':
    case 'video':
    case 'audio':
    case 'pdf':
    case 'file': {
      // The source is a link or a hosted file (an attached upload); an edit that names neither keeps the stored one.
      const source: { type: 'external'; external: { url: string } } | { type: 'file'; file: { url: string } } =
        'external' in input
          ? { type: 'external', external: { url: (input.external as { url: string }).url } }
          : 'file' in input
            ? { type: 'file', file: input.file as { url: string } }
            : base.type === 'file'
              ? { type: 'file', file: base.file as { url: string } }
              : { type: 'external', external: (base.external as { url: string } | undefined) ?? { url: '' } };
      const out: BlockContent = { caption: await rich('caption'), ...source };
      if (type === 'file') {
        const named = source.type === 'file' ? (hostedFilename(source.file.url) ?? fileName(source.file.url)) : fileName(source.external.url);
        out.name = 'name' in input ? input.name : (base.name ?? named);
      }
      return out;
    }
    case 'bookmark':
    case 'embed':
      return { caption: await rich('caption'), url: keep('url', '') };
    case 'table':
      return { table_width: keep('table_width', 1), has_column_header: keep('has_column_header', false), has_row_header: keep('has_row_header', false) };
    case 'table_row': {
      const cells =
        'cells' in input ? await Promise.all((input.cells as RichTextItemInput[][]).map((cell) => normalizeRichText(cell, resolver))) : (base.cells ?? []);
      return { cells };
    }
    case 'column': {
      const ratio = keep<number | undefined>('width_ratio', undefined);
      return ratio === undefined ? {} : { width_ratio: ratio };
    }
    case 'synced_block':
      return { synced_from: 'synced_from' in input ? syncedFrom(input.synced_from) : (base.synced_from ?? null) };
    case 'link_to_page':
      return 'page_id' in input || 'database_id' in input || 'comment_id' in input ? linkTarget(input) : { ...base };
    case 'table_of_contents':
      return { color: color() };
  }
}
