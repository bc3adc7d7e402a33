import type { ParsedBlock } from '../../domain/markdown/nodes.js';
import { parseMarkdown } from '../../domain/markdown/parse.js';
import { MarkdownSyntaxError } from '../../domain/markdown/syntax.js';
import { invalidField, type FieldPath } from '../../errors/validationFailure.js';

/** Markdown from a request as blocks; what cannot be read is a validation error naming the field, never a 500. */
export function readMarkdown(markdown: string, field: FieldPath): ParsedBlock[] {
  try {
    return parseMarkdown(markdown);
  } catch (error) {
    if (error instanceof MarkdownSyntaxError) throw invalidField(field, `should be enhanced markdown the server can read (${error.message})`, markdown);
    throw error;
  }
}
