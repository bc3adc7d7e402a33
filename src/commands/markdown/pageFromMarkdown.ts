import type { CreatePageInput } from '../../schemas/pages.js';
import type { BlockInput } from '../../schemas/blocks.js';
import { invalidField } from '../../errors/validationFailure.js';
import { toRequestBlocks } from '../../domain/markdown/parse.js';
import { MarkdownSyntaxError } from '../../domain/markdown/syntax.js';
import { readMarkdown } from './readMarkdown.js';
import type { Db } from '../../storage/db.js';
import { resolveEmojiNames } from './customEmojiNames.js';
import { checkMemberShapes } from '../../domain/blocks/checkMemberShapes.js';
import { assertHeldReferences } from './fileLinks.js';

/**
 * POST /v1/pages with `markdown` (FACTS.md §10.1 1.2): the markdown becomes the request's
 * `children`, so its blocks take the path and the checks JSON children take; without a title in
 * `properties`, a first `# heading` becomes the title and leaves the content.
 */
export async function pageFromMarkdown(db: Db, workspaceId: string, publicUrl: string, body: CreatePageInput): Promise<CreatePageInput> {
  const { markdown, ...rest } = body;
  if (markdown === undefined) return body;
  for (const other of ['children', 'content'] as const) {
    if (body[other] !== undefined) throw invalidField([other], 'should be not present when markdown is given', body[other]);
  }
  assertHeldReferences(markdown, '', ['markdown']);
  let parsed = readMarkdown(markdown, ['markdown']);
  await resolveEmojiNames(db, workspaceId, publicUrl, parsed);
  const properties = { ...(body.properties ?? {}) };
  const first = parsed[0];
  if (!('title' in properties) && first?.kind === 'new' && first.type === 'heading_1') {
    properties.title = { title: first.member.rich_text } as never;
    parsed = [...(first.children as typeof parsed), ...parsed.slice(1)];
  }
  try {
    const children = toRequestBlocks(parsed) as unknown as BlockInput[];
    checkMemberShapes(children, ['markdown']);
    return { ...rest, properties, ...(children.length ? { children } : {}) };
  } catch (error) {
    if (error instanceof MarkdownSyntaxError) throw invalidField(['markdown'], `should be enhanced markdown the server can read (${error.message})`, markdown);
    throw error;
  }
}
