import type { PageMarkdownJson } from '../schemas/markdown.js';
import type { PageMarkdownView } from '../domain/markdown/view.js';

export function presentPageMarkdown(view: PageMarkdownView): PageMarkdownJson {
  return { object: 'page_markdown', id: view.id, markdown: view.markdown, truncated: view.truncated, unknown_block_ids: view.unknownBlockIds };
}
