import type { Db } from '../../storage/db.js';
import type { Caller } from '../../auth/capabilities.js';
import type { ObjectRow } from '../../storage/schema.js';
import { renderBlocks, type RenderedMarkdown } from '../../domain/markdown/render.js';
import type { PageMarkdownView } from '../../domain/markdown/view.js';
import type { MarkdownBlock } from '../../domain/markdown/nodes.js';
import { objectUrl } from '../../ids/objectUrl.js';
import { loadContentTree } from './loadContentTree.js';

export interface RenderedContent extends RenderedMarkdown {
  blocks: MarkdownBlock[];
  truncated: boolean;
}

/** The root's content loaded and written as NFM; blocks are addressed by their public URL. */
export async function renderContent(db: Db, caller: Caller, root: ObjectRow, baseUrl: string, includeTranscript: boolean): Promise<RenderedContent> {
  const tree = await loadContentTree(db, caller, root);
  const rendered = renderBlocks(tree.blocks, { urlOf: (id) => objectUrl(baseUrl, id), includeTranscript });
  return { ...rendered, blocks: tree.blocks, truncated: tree.truncated || rendered.unknownBlockIds.length > 0 };
}

export function markdownView(id: string, content: RenderedContent): PageMarkdownView {
  return { kind: 'page_markdown', id, markdown: content.markdown, truncated: content.truncated, unknownBlockIds: content.unknownBlockIds };
}
