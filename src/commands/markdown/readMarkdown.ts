import type { MarkdownNode, ParsedBlock } from '../../domain/markdown/nodes.js';
import { parseMarkdown, parseNodes } from '../../domain/markdown/parse.js';
import { splitMarkdown } from '../../domain/markdown/split.js';
import { MarkdownSyntaxError } from '../../domain/markdown/syntax.js';
import { invalidField, type FieldPath } from '../../errors/validationFailure.js';

/** Markdown from a request as blocks; what cannot be read is a validation error naming the field, never a 500. */
export function readMarkdown(markdown: string, field: FieldPath): ParsedBlock[] {
  return orFieldError(() => parseMarkdown(markdown), markdown, field);
}

/** The markdown split into blocks, not yet read (an edit reads only the blocks it changed). */
export function splitOrRefuse(markdown: string, field: FieldPath): MarkdownNode[] {
  return orFieldError(() => splitMarkdown(markdown), markdown, field);
}

export function readNodes(nodes: readonly MarkdownNode[], markdown: string, field: FieldPath): ParsedBlock[] {
  return orFieldError(() => parseNodes(nodes), markdown, field);
}

function orFieldError<T>(read: () => T, markdown: string, field: FieldPath): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof MarkdownSyntaxError) throw invalidField(field, `should be enhanced markdown the server can read (${error.message})`, markdown);
    throw error;
  }
}
