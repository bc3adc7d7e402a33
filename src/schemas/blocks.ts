import { Type, type Static, type TSchema } from 'typebox';
import { IdString, StrictObject } from './common.js';
import { COLORS, LIMITS, RichTextRequestArray } from './richText.js';
import { BlockStamps, Id, ListOf, Open, Parent, Unreadable } from './objectParts.js';

/**
 * The parts of the block request schemas that do not depend on which block types exist (FACTS.md
 * §2 "Blocks", §6 limits, §9 "Block (common)"). Each type's own member schemas are in its entry of
 * the block-type registry (src/domain/blocks/types/), and src/domain/blocks/requestSchemas.ts
 * builds the per-level block schemas and the update body from the registry.
 */

/** FACTS.md §6: 100 blocks per children array, 1000 block elements per payload. */
export const BLOCK_LIMITS = { children: 100, totalBlocks: 1000 } as const;

/**
 * The block schemas refer to shared parts by `$id` instead of inlining them: inlined, every level
 * would repeat the next one in each member that takes children and the rich text schema in each
 * rich text field, and the compiled validator ran to tens of megabytes (measured: a 41 MB schema
 * that exhausted the heap while compiling). The parts are collected in SHARED_BLOCK_DEFS and
 * registered with the levels (BLOCK_SCHEMA_DEFINITIONS, src/domain/blocks/requestSchemas.ts).
 */
export const BLOCK_SCHEMA_IDS = {
  level: ['folio:blocks/level-0', 'folio:blocks/level-1', 'folio:blocks/level-2'],
  column: 'folio:blocks/column',
} as const;

/** Every shared part registered so far, by name (read once all block types are defined). */
export const SHARED_BLOCK_DEFS: Record<string, TSchema> = {};

/**
 * Registers a part used in several places and returns a reference to it. The indirection through
 * allOf stops Ajv from inlining it (it inlines referenced schemas that have no $ref of their own).
 */
export function sharedBlockPart(name: string, schema: TSchema): TSchema {
  const id = `folio:blocks/${name}`;
  if (!SHARED_BLOCK_DEFS[name]) {
    SHARED_BLOCK_DEFS[name] = { $id: id, allOf: [Type.Ref(`${id}/body`)] } as TSchema;
    SHARED_BLOCK_DEFS[`${name}Body`] = { ...schema, $id: `${id}/body` } as TSchema;
  }
  return Type.Ref(id);
}

export const Url = Type.String({ maxLength: LIMITS.url });
export const RichText = sharedBlockPart('rich-text', RichTextRequestArray);
/** Enums rather than unions of literals: one compiled check, and the message lists every value. */
export const Color = Type.Enum([...COLORS]);
export const Caption = Type.Optional(RichText);
export const Empty = StrictObject({});

export const FileUploadRef = StrictObject({ id: IdString });
export const ExternalFile = StrictObject({ url: Type.String({ minLength: 1, maxLength: LIMITS.url }) });

/** Icons of callouts and paragraphs: the page-icon shapes of the SDK's PageIconRequest. */
export const BlockIconRequest = Type.Union([
  StrictObject({ type: Type.Optional(Type.Literal('emoji')), emoji: Type.String({ minLength: 1, maxLength: 100 }) }),
  StrictObject({ type: Type.Optional(Type.Literal('external')), external: ExternalFile }),
  StrictObject({ type: Type.Optional(Type.Literal('file_upload')), file_upload: FileUploadRef }),
  StrictObject({
    type: Type.Optional(Type.Literal('custom_emoji')),
    custom_emoji: StrictObject({ id: IdString, name: Type.Optional(Type.String({ maxLength: 200 })), url: Type.Optional(Url) }),
  }),
  StrictObject({
    type: Type.Optional(Type.Literal('icon')),
    icon: StrictObject({ name: Type.String({ minLength: 1, maxLength: 100 }), color: Type.Optional(Type.String({ maxLength: 100 })) }),
  }),
]);
export type BlockIconInput = Static<typeof BlockIconRequest>;
export const Icon = sharedBlockPart('icon', BlockIconRequest);

/** A `children` array of a request block: at most 100 blocks (FACTS.md §6). */
export function childrenArray(items: TSchema) {
  return Type.Array(items, { maxItems: BLOCK_LIMITS.children });
}

/** A block as written in a request; checkBlockTree establishes which member it carries. */
export interface BlockInput {
  object?: 'block';
  type?: string;
  [member: string]: unknown;
}

/** append-block-children's `position` (2026-03-11; `after` before it, see its change module). */
export const ContentPosition = Type.Union([
  StrictObject({ type: Type.Literal('after_block'), after_block: StrictObject({ id: IdString }) }),
  StrictObject({ type: Type.Literal('start') }),
  StrictObject({ type: Type.Literal('end') }),
]);
export type ContentPositionInput = Static<typeof ContentPosition>;

/** `children` of append-block-children and of page creation: ≤100 blocks, two nesting levels. */
export const BlockRequestArray = Type.Array(Type.Ref(BLOCK_SCHEMA_IDS.level[0]), { maxItems: BLOCK_LIMITS.children });

export const AppendChildrenBody = StrictObject({ children: BlockRequestArray, position: Type.Optional(ContentPosition) });

export const BlockParams = StrictObject({ block_id: Type.String({ maxLength: 200 }) });

// ---------------------------------------------------------------------------------------------
// Responses (newest version; see src/schemas/objectParts.ts). Kept apart from the request schemas
// above. (BLOCK_SCHEMA_DEFINITIONS is registered by the http layer, src/http/sharedSchemas.ts, with
// Fastify's addSchema; importing this file registers nothing.)

/** A block: the common fields (FACTS.md §9 "Block (common)") and the member its type names. */
export const BlockObject = Type.Object(
  {
    object: Type.Literal('block'),
    id: Id,
    parent: Parent,
    ...BlockStamps,
    type: Type.String(),
  },
  { additionalProperties: Open },
);

export const BlockResponse = BlockObject;
export const WrittenBlockResponse = Type.Union([BlockObject, Unreadable('block')]);
export const BlockListResponse = ListOf('block', Type.Union([BlockObject, Unreadable('block')]));
