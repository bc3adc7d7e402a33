import type { BlockIconInput } from '../../schemas/blocks.js';
import { normalizeId } from '../../ids/ids.js';

const canonical = (id: unknown) => normalizeId(String(id)) ?? String(id);

/** A request icon (callouts, paragraphs, pages) as stored and shown. */
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
