import { Type } from 'typebox';
import { IdString, StrictObject } from '../../../schemas/common.js';
import { invalidField } from '../../../errors/validationFailure.js';
import { normalizeId } from '../../../ids/ids.js';
import { findObject } from '../../../storage/repositories/objects.js';
import { parseContent } from '../../contentShapes.js';
import { kidsOf } from './text.js';
import { PLAIN, presentFields, type Member, type WritableBlockTypeDefinition } from './definition.js';
import { idFromMentionUrl, tagBlock, tagged } from '../../markdown/forms.js';
import { MarkdownSyntaxError } from '../../markdown/syntax.js';

/**
 * A synced block is an original (`synced_from: null`) holding blocks, or a copy naming its
 * original, which shows the original's children and holds none of its own.
 */
const SYNCED_BLOCK = 'synced_block';

const SyncedFrom = Type.Union([StrictObject({ type: Type.Optional(Type.Literal('block_id')), block_id: IdString }), Type.Null()]);

const canonical = (id: unknown) => normalizeId(String(id)) ?? String(id);

function syncedFrom(value: unknown): Member | null {
  if (!value || typeof value !== 'object') return null;
  return { type: 'block_id', block_id: canonical((value as { block_id: unknown }).block_id) };
}

/** The original a stored synced block copies, or null for an original. */
const originalOf = (content: Member): string | null => (content.synced_from as { block_id?: string } | null | undefined)?.block_id ?? null;

export const syncedBlock: WritableBlockTypeDefinition = {
  ...PLAIN,
  holds: 'blocks',
  request: {
    create: (next) => StrictObject({ synced_from: SyncedFrom, ...kidsOf(next) }),
    update: StrictObject({ synced_from: SyncedFrom }),
    deepestLevel: 2,
    build: async ({ input, base }) => ({ synced_from: 'synced_from' in input ? syncedFrom(input.synced_from) : (base.synced_from ?? null) }),
  },
  present: presentFields('synced_from'),
  /**
   * An original is `<synced_block url="…">`, a copy `<synced_block_reference url="(original)">`,
   * both with the content they show one tab deeper; a new original is written without `url`. A
   * copy's content is its original's, so what is written inside a reference is not read.
   */
  markdown: {
    render(block, ctx) {
      const original = originalOf(block.member);
      return original
        ? tagBlock('synced_block_reference', { url: ctx.urlOf(original) }, ctx.children(block))
        : tagBlock(SYNCED_BLOCK, { url: ctx.urlOf(block.id) }, ctx.children(block));
    },
    parse(node) {
      if (tagged(node, SYNCED_BLOCK)) return { member: { synced_from: null }, children: node.children };
      const reference = tagged(node, 'synced_block_reference');
      if (!reference) return null;
      const id = reference.attrs.url ? idFromMentionUrl(reference.attrs.url) : null;
      if (!id) throw new MarkdownSyntaxError('`<synced_block_reference>` needs a `url` naming the original synced block');
      return { member: { synced_from: { type: 'block_id', block_id: id } }, children: [] };
    },
  },
  // A copy holds no children of its own: nothing may be appended under it.
  asParent: (content) => ({ kind: content.synced_from ? 'synced block copy' : SYNCED_BLOCK }),
  // Children come from the original.
  childrenFrom: originalOf,
  checkNew(member, at) {
    const children = member.children as unknown[] | undefined;
    if (member.synced_from !== null && children?.length) {
      throw invalidField([...at, 'children'], 'should be not present when `synced_from` names the original block', children);
    }
  },
  /** A copy must name an original synced block of the same workspace that is not in the trash. */
  async checkNewInStore(db, member, at, workspaceId) {
    if (!member.synced_from) return;
    const raw = String((member.synced_from as { block_id: string }).block_id);
    const source = await findObject(db, normalizeId(raw) ?? raw);
    const original =
      source &&
      source.workspace_id === workspaceId &&
      source.object === 'block' &&
      source.type === SYNCED_BLOCK &&
      source.in_trash === 0 &&
      !parseContent<{ synced_from?: unknown }>(source.content).synced_from;
    if (!original) throw invalidField([...at, 'synced_from', 'block_id'], 'should be the ID of an original synced block', raw);
  },
  // A synced block may not be re-pointed: an edit names the block it already syncs from.
  async checkEdit(_db, row, member, at) {
    const stored = originalOf(parseContent<Member>(row.content));
    const given = member.synced_from as { block_id: string } | null;
    if (stored !== (given ? normalizeId(given.block_id) : null)) {
      throw invalidField([...at, 'synced_from'], 'should name the block it already syncs from (a synced block cannot be re-pointed)', given);
    }
  },
};
