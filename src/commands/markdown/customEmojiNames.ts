import type { Db } from '../../storage/db.js';
import type { ParsedBlock } from '../../domain/markdown/nodes.js';
import { findCustomEmojiByName } from '../../storage/repositories/customEmojis.js';
import { emojiUrl } from '../../ids/emojiUrl.js';

type Item = Record<string, unknown> & { text?: { content: string; link?: unknown }; annotations?: Record<string, unknown> };

const NAME = /:([A-Za-z0-9_+-]+):/g;

const isRichText = (value: unknown): value is Item[] =>
  Array.isArray(value) && value.every((i) => i !== null && typeof i === 'object' && ('text' in i || 'mention' in i || 'equation' in i));

/**
 * `:name:` in markdown text is the workspace's custom emoji of that name (FACTS.md §10.1 1.4), as
 * the converter writes a custom emoji mention; a name the workspace has no emoji for stays text.
 * Code spans are literal and keep theirs.
 */
export async function resolveEmojiNames(db: Db, workspaceId: string, publicUrl: string, blocks: readonly ParsedBlock[]): Promise<void> {
  const known = new Map<string, string | null>();
  const idOf = async (name: string) => {
    if (!known.has(name)) known.set(name, (await findCustomEmojiByName(db, workspaceId, name))?.id ?? null);
    return known.get(name)!;
  };
  const resolveItems = async (items: Item[]): Promise<Item[]> => {
    const out: Item[] = [];
    for (const item of items) {
      const content = item.text?.content;
      if (content === undefined || item.annotations?.code || !content.includes(':')) {
        out.push(item);
        continue;
      }
      let last = 0;
      for (const match of content.matchAll(NAME)) {
        const id = await idOf(match[1]);
        if (!id) continue;
        if (match.index > last) out.push({ ...item, text: { ...item.text!, content: content.slice(last, match.index) } });
        out.push({
          type: 'mention',
          mention: { type: 'custom_emoji', custom_emoji: { id, name: match[1], url: emojiUrl(publicUrl, id) } },
          annotations: item.annotations,
        });
        last = match.index + match[0].length;
      }
      if (last === 0) out.push(item);
      else if (last < content.length) out.push({ ...item, text: { ...item.text!, content: content.slice(last) } });
    }
    return out;
  };
  const walk = async (level: readonly ParsedBlock[]): Promise<void> => {
    for (const block of level) {
      if (block.kind !== 'new') continue;
      for (const [key, value] of Object.entries(block.member)) {
        if (isRichText(value)) block.member[key] = await resolveItems(value);
        else if (Array.isArray(value) && value.length > 0 && value.every(isRichText)) {
          const cells: Item[][] = [];
          for (const cell of value) cells.push(await resolveItems(cell));
          block.member[key] = cells;
        }
      }
      await walk(block.children);
    }
  };
  await walk(blocks);
}
