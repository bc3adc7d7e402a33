import type { UpdatePageMarkdownInput } from '../../schemas/markdown.js';
import { invalidField, missingField, type FieldPath } from '../../errors/validationFailure.js';
import { validationError } from '../../errors/registry.js';
import { EDIT_TYPES } from '../../schemas/markdown.js';

/**
 * The four edit modes of PATCH /v1/pages/{id}/markdown as text edits of the page's current
 * markdown (FACTS.md §10.1 1.6): matching is exact and case-sensitive. The result is what the
 * page's content becomes; src/commands/markdown/applyMarkdown.ts writes it.
 */

export interface MarkdownEdit {
  /** The page's content after the edit, as NFM. */
  markdown: string;
  /** The field the new text came from, for a parse error's message. */
  field: FieldPath;
  allowDeleting: boolean;
}

/** An ellipsis selection: `start...end` spans from the first `start` to the next `end`; without `...`, the text itself. */
export function findSelection(markdown: string, selection: string, field: FieldPath): { start: number; end: number } {
  const dots = selection.indexOf('...');
  const notFound = () => invalidField(field, 'should match text of the page (matching is exact and case-sensitive)', selection);
  if (dots < 0) {
    const start = markdown.indexOf(selection);
    if (selection === '' || start < 0) throw notFound();
    return { start, end: start + selection.length };
  }
  const head = selection.slice(0, dots);
  const tail = selection.slice(dots + 3);
  const start = markdown.indexOf(head);
  if (start < 0) throw notFound();
  const tailAt = markdown.indexOf(tail, start + head.length);
  if (tailAt < 0) throw notFound();
  return { start, end: tailAt + tail.length };
}

/** Text joined as blocks: a newline between, none around an empty side. */
const joinBlocks = (...parts: string[]) => parts.filter((p) => p !== '').join('\n');

function occurrences(text: string, part: string): number[] {
  const at: number[] = [];
  if (part === '') return at;
  for (let i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length)) at.push(i);
  return at;
}

export function applyEdit(current: string, body: UpdatePageMarkdownInput): MarkdownEdit {
  const type = body.type;
  for (const other of EDIT_TYPES) {
    if (other !== type && body[other] !== undefined) throw invalidField([other], `should be not present when \`type\` is \`${type}\``, body[other]);
  }
  switch (type) {
    case 'insert_content': {
      const edit = body.insert_content;
      if (!edit) throw missingField(['insert_content']);
      if (edit.after !== undefined && edit.position !== undefined)
        throw validationError('Use only one insertion target: `insert_content.after` or `insert_content.position`.');
      const field = ['insert_content', 'content'];
      if (edit.position?.type === 'start') return { markdown: joinBlocks(edit.content, current), field, allowDeleting: false };
      if (edit.after === undefined) return { markdown: joinBlocks(current, edit.content), field, allowDeleting: false };
      // After the line the selection ends on: content is blocks, never half a line.
      const { end } = findSelection(current, edit.after, ['insert_content', 'after']);
      const lineEnd = current.indexOf('\n', end);
      const cutAt = lineEnd < 0 ? current.length : lineEnd;
      return { markdown: joinBlocks(current.slice(0, cutAt), edit.content, current.slice(cutAt + 1)), field, allowDeleting: false };
    }
    case 'replace_content_range': {
      const edit = body.replace_content_range;
      if (!edit) throw missingField(['replace_content_range']);
      const { start, end } = findSelection(current, edit.content_range, ['replace_content_range', 'content_range']);
      return {
        markdown: current.slice(0, start) + edit.content + current.slice(end),
        field: ['replace_content_range', 'content'],
        allowDeleting: edit.allow_deleting_content === true,
      };
    }
    case 'update_content': {
      const edit = body.update_content;
      if (!edit) throw missingField(['update_content']);
      let markdown = current;
      edit.content_updates.forEach((update, i) => {
        const path = ['update_content', 'content_updates', i, 'old_str'];
        const found = occurrences(markdown, update.old_str);
        if (found.length === 0) throw invalidField(path, 'should match text of the page (matching is exact and case-sensitive)', update.old_str);
        if (found.length > 1 && !update.replace_all_matches) {
          throw invalidField(
            path,
            `should match exactly one place in the page (it matches ${found.length}; set \`replace_all_matches\` to replace every one)`,
            update.old_str,
          );
        }
        markdown = update.replace_all_matches
          ? markdown.split(update.old_str).join(update.new_str)
          : markdown.slice(0, found[0]) + update.new_str + markdown.slice(found[0] + update.old_str.length);
      });
      return { markdown, field: ['update_content', 'content_updates'], allowDeleting: edit.allow_deleting_content === true };
    }
    case 'replace_content': {
      const edit = body.replace_content;
      if (!edit) throw missingField(['replace_content']);
      return { markdown: edit.new_str, field: ['replace_content', 'new_str'], allowDeleting: edit.allow_deleting_content === true };
    }
  }
}
