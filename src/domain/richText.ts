/** Rich text items as the API returns them (spec, "Rich text item"), and their normalisation. */
import type { MentionInput, RichTextItemInput } from '../schemas/richText.js';
import { normalizeId } from '../ids/ids.js';

const canonical = (id: string) => normalizeId(id) ?? id;

export interface Annotations {
  bold: boolean;
  italic: boolean;
  strikethrough: boolean;
  underline: boolean;
  code: boolean;
  color: string;
}

export interface RichTextItem {
  type: 'text' | 'mention' | 'equation';
  plain_text: string;
  href: string | null;
  annotations: Annotations;
  [member: string]: unknown;
}

export const DEFAULT_ANNOTATIONS: Annotations = Object.freeze({
  bold: false,
  italic: false,
  strikethrough: false,
  underline: false,
  code: false,
  color: 'default',
});

export function textItem(content: string): RichTextItem {
  return { type: 'text', text: { content, link: null }, annotations: { ...DEFAULT_ANNOTATIONS }, plain_text: content, href: null };
}

export function plainText(items: readonly RichTextItem[]): string {
  return items.map((i) => i.plain_text).join('');
}

/**
 * What mentions need from the store: names and titles for plain_text, links for href. Commands
 * build one per request (see createMentionResolver) so lookups stay out of this pure module.
 */
export interface MentionResolver {
  userName(id: string): Promise<string | null>;
  objectTitle(id: string): Promise<string | null>;
  objectUrl(id: string): string;
  /** The person `template_mention_user: me` stands for, if any. */
  me: string | null;
}

function annotationsOf(input: RichTextItemInput): Annotations {
  return { ...DEFAULT_ANNOTATIONS, ...(input.annotations ?? {}) };
}

async function presentMention(
  mention: MentionInput,
  resolver: MentionResolver,
): Promise<{ mention: Record<string, unknown>; plain: string; href: string | null }> {
  if ('user' in mention) {
    const name = await resolver.userName(canonical(mention.user.id));
    return { mention: { type: 'user', user: { object: 'user', id: canonical(mention.user.id) } }, plain: `@${name ?? 'Unknown user'}`, href: null };
  }
  if ('page' in mention) {
    const title = await resolver.objectTitle(canonical(mention.page.id));
    return {
      mention: { type: 'page', page: { id: canonical(mention.page.id) } },
      plain: title ?? 'Untitled',
      href: resolver.objectUrl(canonical(mention.page.id)),
    };
  }
  if ('database' in mention) {
    const title = await resolver.objectTitle(canonical(mention.database.id));
    return {
      mention: { type: 'database', database: { id: canonical(mention.database.id) } },
      plain: title ?? 'Untitled',
      href: resolver.objectUrl(canonical(mention.database.id)),
    };
  }
  if ('data_source' in mention) {
    const title = await resolver.objectTitle(canonical(mention.data_source.id));
    return {
      mention: { type: 'data_source', data_source: { id: canonical(mention.data_source.id) } },
      plain: title ?? 'Untitled',
      href: resolver.objectUrl(canonical(mention.data_source.id)),
    };
  }
  if ('date' in mention) {
    const date = { start: mention.date.start, end: mention.date.end ?? null, time_zone: mention.date.time_zone ?? null };
    return { mention: { type: 'date', date }, plain: date.end ? `${date.start} → ${date.end}` : date.start, href: null };
  }
  if ('link_preview' in mention) {
    return {
      mention: { type: 'link_preview', link_preview: { url: mention.link_preview.url } },
      plain: mention.link_preview.url,
      href: mention.link_preview.url,
    };
  }
  if ('link_mention' in mention) {
    const link = mention.link_mention as { href: string; title?: unknown };
    return { mention: { type: 'link_mention', link_mention: { ...link } }, plain: typeof link.title === 'string' ? link.title : link.href, href: link.href };
  }
  if ('template_mention' in mention) {
    const t = mention.template_mention;
    if ('template_mention_date' in t) {
      const value = t.template_mention_date;
      return {
        mention: { type: 'template_mention', template_mention: { type: 'template_mention_date', template_mention_date: value } },
        plain: value === 'today' ? '@Today' : '@Now',
        href: null,
      };
    }
    return {
      mention: { type: 'template_mention', template_mention: { type: 'template_mention_user', template_mention_user: 'me' } },
      plain: '@Me',
      href: null,
    };
  }
  const emoji = mention.custom_emoji;
  const name = emoji.name ?? 'emoji';
  return { mention: { type: 'custom_emoji', custom_emoji: { id: canonical(emoji.id), name, url: emoji.url ?? '' } }, plain: `:${name}:`, href: null };
}

/** Request items → response items, with plain_text and href computed by the server. */
export async function normalizeRichText(items: readonly RichTextItemInput[], resolver: MentionResolver): Promise<RichTextItem[]> {
  const out: RichTextItem[] = [];
  for (const item of items) {
    const annotations = annotationsOf(item);
    if ('text' in item) {
      const link = item.text.link ? { url: item.text.link.url } : null;
      out.push({ type: 'text', text: { content: item.text.content, link }, annotations, plain_text: item.text.content, href: link?.url ?? null });
    } else if ('equation' in item) {
      out.push({ type: 'equation', equation: { expression: item.equation.expression }, annotations, plain_text: item.equation.expression, href: null });
    } else {
      const { mention, plain, href } = await presentMention(item.mention, resolver);
      out.push({ type: 'mention', mention, annotations, plain_text: plain, href });
    }
  }
  return out;
}
