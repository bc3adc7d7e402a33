import type { CommentBodyInput } from '../../schemas/comments.js';
import { ValidationFailure } from '../../errors/validationFailure.js';
import { normalizeRichText, type MentionResolver, type RichTextItem } from '../../domain/richText.js';
import { markdownToRichText } from '../../domain/markdown/inline.js';
import { MarkdownSyntaxError } from '../../domain/markdown/syntax.js';

/**
 * The one way a comment's text is read from a request, for create and update alike: exactly one of
 * `rich_text` and `markdown` (FACTS.md §10.2: both or neither is a validation error).
 *
 * `markdown` is inline-only Notion-flavoured Markdown (FACTS.md §10.2), read by the page-markdown
 * converter (src/domain/markdown/inline.ts); block syntax (headings, lists, fences) "does not become
 * structured blocks", so markdown that is not inline is kept as one plain text item as written.
 */
export async function commentRichText(body: CommentBodyInput, resolver: MentionResolver): Promise<RichTextItem[]> {
  assertOneCommentBody(body);
  if (body.rich_text !== undefined) return normalizeRichText(body.rich_text, resolver);
  return normalizeRichText(inlineOrText(body.markdown!), resolver);
}

function inlineOrText(markdown: string): ReturnType<typeof markdownToRichText> {
  try {
    return markdownToRichText(markdown);
  } catch (error) {
    if (!(error instanceof MarkdownSyntaxError)) throw error;
    return [{ type: 'text', text: { content: markdown } }];
  }
}

/** Both or neither of `rich_text` and `markdown`: a validation error naming both fields. */
export function assertOneCommentBody(body: CommentBodyInput): void {
  if (body.rich_text !== undefined && body.markdown !== undefined) {
    throw new ValidationFailure({
      part: 'body',
      path: ['markdown'],
      rule: { name: 'not_allowed', reason: 'a comment is given as body.rich_text or as body.markdown, not both' },
      actual: { value: body.markdown },
    });
  }
  if (body.rich_text === undefined && body.markdown === undefined) {
    throw new ValidationFailure({
      part: 'body',
      path: ['rich_text'],
      rule: { name: 'custom', expectation: 'should be defined when body.markdown is not' },
      actual: { value: undefined },
    });
  }
}
