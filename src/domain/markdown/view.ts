/** What the page-markdown endpoints answer with, before presentation (src/presenters/pageMarkdown.ts). */
export interface PageMarkdownView {
  kind: 'page_markdown';
  id: string;
  markdown: string;
  truncated: boolean;
  unknownBlockIds: string[];
}
