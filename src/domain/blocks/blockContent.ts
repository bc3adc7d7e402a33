import type { BlockContent } from '../contentShapes.js';
import { normalizeRichText, type MentionResolver, type RichTextItem } from '../richText.js';
import type { RichTextItemInput } from '../../schemas/richText.js';
import { writableDefinition, type WritableBlockType } from './registry.js';
import type { ContentInput } from './types/definition.js';

export { presentIcon } from './icons.js';

/**
 * Request members → the stored member, which is already the response member at HEAD (FACTS.md
 * §9 per-type shapes): rich text normalised (plain_text, href), defaults filled in, ids
 * canonical. The presenter then only has to pick fields. Each type's own rule is its `build`
 * in the block-type registry (src/domain/blocks/types/).
 */

type Member = Record<string, unknown>;

/**
 * Builds the stored member of a new block, or of an edited one: `base` is the stored member
 * (empty for a new block) and every field given in `input` replaces its counterpart; omitted
 * fields keep their stored value or, for a new block, the default (FACTS.md §2, update-a-block).
 */
export async function buildBlockContent(type: WritableBlockType, input: Member, resolver: MentionResolver, base: BlockContent = {}): Promise<BlockContent> {
  const keep = <T>(key: string, fallback: T): T => (key in input ? (input[key] as T) : ((base[key] as T | undefined) ?? fallback));
  const content: ContentInput = {
    input,
    base,
    resolver,
    rich: async (key: string): Promise<RichTextItem[]> =>
      key in input ? normalizeRichText(input[key] as RichTextItemInput[], resolver) : ((base[key] as RichTextItem[] | undefined) ?? []),
    keep,
    color: () => keep('color', 'default'),
  };
  return writableDefinition(type).request.build(content);
}
