import { Type, type Static, type TProperties, type TSchema } from 'typebox';
import { IdString, StrictObject } from './common.js';
import { COLORS, LIMITS, RichTextRequestArray } from './richText.js';
import { BlockStamps, Id, ListOf, Open, Parent, Unreadable } from './objectParts.js';

/**
 * Block request schemas (FACTS.md §2 "Blocks", §6 limits, §9 "Block (common)"). The service
 * validates a request body level by level: an appended block may carry children, and those
 * children may carry children once more ("up to 2 nesting levels per request"); a third level is
 * refused by the schema itself as `…children should be not present`, the wording FACTS.md §6
 * quotes. Columns inside a column list do not use up a level, as in the SDK's request types.
 */

/** Block types an integration may create or edit (FACTS.md §9; the SDK's BlockObjectRequest). */
export const WRITABLE_BLOCK_TYPES = [
  'paragraph',
  'heading_1',
  'heading_2',
  'heading_3',
  'heading_4',
  'bulleted_list_item',
  'numbered_list_item',
  'to_do',
  'toggle',
  'quote',
  'callout',
  'code',
  'divider',
  'equation',
  'image',
  'video',
  'audio',
  'file',
  'pdf',
  'bookmark',
  'embed',
  'table',
  'table_row',
  'column_list',
  'column',
  'synced_block',
  'link_to_page',
  'table_of_contents',
  'breadcrumb',
] as const;
export type WritableBlockType = (typeof WRITABLE_BLOCK_TYPES)[number];

/** Types that are only ever read: pages and databases seen as blocks, and meeting notes (own endpoint). */
export const READ_ONLY_BLOCK_TYPES = ['child_page', 'child_database', 'meeting_notes'] as const;
export const BLOCK_TYPES = [...WRITABLE_BLOCK_TYPES, ...READ_ONLY_BLOCK_TYPES] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

/** FACTS.md §6: 100 blocks per children array, 1000 block elements per payload. */
export const BLOCK_LIMITS = { children: 100, totalBlocks: 1000 } as const;

export const CODE_LANGUAGES = [
  'abap',
  'abc',
  'agda',
  'arduino',
  'ascii art',
  'assembly',
  'bash',
  'basic',
  'bnf',
  'c',
  'c#',
  'c++',
  'clojure',
  'coffeescript',
  'coq',
  'css',
  'dart',
  'dhall',
  'diff',
  'docker',
  'ebnf',
  'elixir',
  'elm',
  'erlang',
  'f#',
  'flow',
  'fortran',
  'gherkin',
  'glsl',
  'go',
  'graphql',
  'groovy',
  'haskell',
  'hcl',
  'html',
  'idris',
  'java',
  'javascript',
  'json',
  'julia',
  'kotlin',
  'latex',
  'less',
  'lisp',
  'livescript',
  'llvm ir',
  'lua',
  'makefile',
  'markdown',
  'markup',
  'matlab',
  'mathematica',
  'mermaid',
  'nix',
  'notion formula',
  'objective-c',
  'ocaml',
  'pascal',
  'perl',
  'php',
  'plain text',
  'powershell',
  'prolog',
  'protobuf',
  'purescript',
  'python',
  'r',
  'racket',
  'reason',
  'ruby',
  'rust',
  'sass',
  'scala',
  'scheme',
  'scss',
  'shell',
  'smalltalk',
  'solidity',
  'sql',
  'swift',
  'toml',
  'typescript',
  'vb.net',
  'verilog',
  'vhdl',
  'visual basic',
  'webassembly',
  'xml',
  'yaml',
  'java/c/c++/c#',
] as const;

/**
 * The block schemas refer to shared parts by `$id` instead of inlining them: inlined, every level
 * would repeat the next one in each member that takes children and the rich text schema in each
 * rich text field, and the compiled validator ran to tens of megabytes (measured: a 41 MB schema
 * that exhausted the heap while compiling). The parts are registered once, at the end of this file.
 */
const ID = {
  level: ['folio:blocks/level-0', 'folio:blocks/level-1', 'folio:blocks/level-2'],
  column: 'folio:blocks/column',
} as const;

/** True for the schema of one request block, whose unknown keys are unknown block types. */
export function isBlockSchemaId(id: unknown): boolean {
  return id === ID.column || (ID.level as readonly unknown[]).includes(id);
}

const sharedDefs: Record<string, TSchema> = {};

/**
 * Registers a part used in several places and returns a reference to it. The indirection through
 * allOf stops Ajv from inlining it (it inlines referenced schemas that have no $ref of their own).
 */
function shared(name: string, schema: TSchema): TSchema {
  const id = `folio:blocks/${name}`;
  if (!sharedDefs[name]) {
    sharedDefs[name] = { $id: id, allOf: [Type.Ref(`${id}/body`)] } as TSchema;
    sharedDefs[`${name}Body`] = { ...schema, $id: `${id}/body` } as TSchema;
  }
  return Type.Ref(id);
}

const Url = Type.String({ maxLength: LIMITS.url });
const RichText = shared('rich-text', RichTextRequestArray);
/** Enums rather than unions of literals: one compiled check, and the message lists every value. */
const Color = Type.Enum([...COLORS]);
const Caption = Type.Optional(RichText);
const Empty = StrictObject({});

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
const Icon = shared('icon', BlockIconRequest);

const Language = Type.Enum([...CODE_LANGUAGES]);
const ListFormat = Type.Enum(['numbers', 'letters', 'roman']);
const IdRefOf = <K extends string>(key: K) => StrictObject({ type: Type.Optional(Type.Literal(key)), [key]: IdString } as Record<K | 'type', TSchema>);

/** Media sources: a link, or a file upload (FACTS.md §8). */
function mediaMember(withName: boolean, partial: boolean): TSchema {
  return shared(`media-${withName ? 'named' : 'plain'}-${partial ? 'update' : 'create'}`, mediaSchema(withName, partial));
}

function mediaSchema(withName: boolean, partial: boolean): TSchema {
  const name: TProperties = withName ? { name: Type.Optional(Type.String({ maxLength: 900 })) } : {};
  if (partial) {
    return StrictObject({
      type: Type.Optional(Type.Union([Type.Literal('external'), Type.Literal('file_upload')])),
      external: Type.Optional(ExternalFile),
      file_upload: Type.Optional(FileUploadRef),
      caption: Caption,
      ...name,
    });
  }
  return Type.Union([
    StrictObject({ type: Type.Optional(Type.Literal('external')), external: ExternalFile, caption: Caption, ...name }),
    StrictObject({ type: Type.Optional(Type.Literal('file_upload')), file_upload: FileUploadRef, caption: Caption, ...name }),
  ]);
}

const linkToPageMember = Type.Union([IdRefOf('page_id'), IdRefOf('database_id'), IdRefOf('comment_id')]);
const syncedFrom = Type.Union([StrictObject({ type: Type.Optional(Type.Literal('block_id')), block_id: IdString }), Type.Null()]);
const tableRowMember = StrictObject({ cells: Type.Array(RichText, { maxItems: LIMITS.arrayItems }) });
const TableRowBlock = StrictObject({
  object: Type.Optional(Type.Literal('block')),
  type: Type.Optional(Type.Literal('table_row')),
  table_row: tableRowMember,
});
const TableWidth = Type.Integer({ minimum: 1, maximum: LIMITS.arrayItems });

/** The deepest level a type may appear at (0 = the appended block itself); others go to 2. */
const DEEPEST_LEVEL: Partial<Record<WritableBlockType, number>> = { column_list: 0, column: 0, table: 1 };

/** Types whose request member nests children of the next level. */
const NESTING_TYPES: ReadonlySet<WritableBlockType> = new Set([
  'paragraph',
  'heading_1',
  'heading_2',
  'heading_3',
  'heading_4',
  'bulleted_list_item',
  'numbered_list_item',
  'to_do',
  'toggle',
  'quote',
  'callout',
  'synced_block',
  'column',
]);

function childrenArray(items: TSchema) {
  return Type.Array(items, { maxItems: BLOCK_LIMITS.children });
}

/**
 * The member schema of one block type at one nesting level. `next` refers to a child block one
 * level down, or is null when this level may not have children.
 */
function createMember(type: WritableBlockType, next: TSchema | null): TSchema {
  const kids: TProperties = next ? { children: Type.Optional(childrenArray(next)) } : {};
  switch (type) {
    case 'paragraph':
      return StrictObject({ rich_text: RichText, color: Type.Optional(Color), icon: Type.Optional(Icon), ...kids });
    case 'heading_1':
    case 'heading_2':
    case 'heading_3':
    case 'heading_4':
      return StrictObject({ rich_text: RichText, color: Type.Optional(Color), is_toggleable: Type.Optional(Type.Boolean()), ...kids });
    case 'bulleted_list_item':
    case 'toggle':
    case 'quote':
      return StrictObject({ rich_text: RichText, color: Type.Optional(Color), ...kids });
    case 'numbered_list_item':
      return StrictObject({
        rich_text: RichText,
        color: Type.Optional(Color),
        list_start_index: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
        list_format: Type.Optional(ListFormat),
        ...kids,
      });
    case 'to_do':
      return StrictObject({ rich_text: RichText, color: Type.Optional(Color), checked: Type.Optional(Type.Boolean()), ...kids });
    case 'callout':
      return StrictObject({ rich_text: RichText, color: Type.Optional(Color), icon: Type.Optional(Icon), ...kids });
    case 'code':
      return StrictObject({ rich_text: RichText, language: Language, caption: Caption });
    case 'divider':
    case 'breadcrumb':
      return Empty;
    case 'equation':
      return StrictObject({ expression: Type.String({ maxLength: LIMITS.equation }) });
    case 'image':
    case 'video':
    case 'audio':
    case 'pdf':
      return mediaMember(false, false);
    case 'file':
      return mediaMember(true, false);
    case 'bookmark':
    case 'embed':
      return StrictObject({ url: Url, caption: Caption });
    case 'table':
      return StrictObject({
        table_width: TableWidth,
        has_column_header: Type.Optional(Type.Boolean()),
        has_row_header: Type.Optional(Type.Boolean()),
        children: childrenArray(TableRowBlock),
      });
    case 'table_row':
      return tableRowMember;
    case 'column_list':
      // Columns sit at the column list's own level: their content is the next level.
      return StrictObject({ children: childrenArray(Type.Ref(ID.column)) });
    case 'column':
      return StrictObject({ width_ratio: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1 })), children: childrenArray(next ?? Empty) });
    case 'synced_block':
      return StrictObject({ synced_from: syncedFrom, ...kids });
    case 'link_to_page':
      return linkToPageMember;
    case 'table_of_contents':
      return StrictObject({ color: Type.Optional(Color) });
  }
}

/**
 * A block at nesting level `level`: one object with every type's member optional, so a mistake
 * is reported at its exact path. That exactly one member is given (and matches `type`) is a
 * domain check (src/domain/blocks/checkBlockTree.ts): a schema union would name a wrong branch.
 */
function blockAtLevel(level: number, types: readonly WritableBlockType[], id: string): TSchema {
  const next = level < 2 ? Type.Ref(ID.level[level + 1]) : null;
  const members: Record<string, TSchema> = {};
  for (const t of types) members[t] = Type.Optional(NESTING_TYPES.has(t) ? createMember(t, next) : shared(`create-${t}`, createMember(t, null)));
  return Type.Object(
    { object: Type.Optional(Type.Literal('block')), type: Type.Optional(Type.Enum([...types])), ...members },
    { additionalProperties: false, $id: id },
  );
}

const typesAtLevel = (level: number) => WRITABLE_BLOCK_TYPES.filter((t) => (DEEPEST_LEVEL[t] ?? 2) >= level);
const LEVELS = {
  level0: blockAtLevel(0, typesAtLevel(0), ID.level[0]),
  level1: blockAtLevel(1, typesAtLevel(1), ID.level[1]),
  level2: blockAtLevel(2, typesAtLevel(2), ID.level[2]),
  column: blockAtLevel(0, ['column'], ID.column),
};

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

/** Update members: every field optional; a given field replaces the stored one (FACTS.md §2). */
function updateMember(type: WritableBlockType): TSchema {
  switch (type) {
    case 'paragraph':
    case 'callout':
      return StrictObject({ rich_text: Type.Optional(RichText), color: Type.Optional(Color), icon: Type.Optional(Type.Union([Icon, Type.Null()])) });
    case 'heading_1':
    case 'heading_2':
    case 'heading_3':
    case 'heading_4':
      return StrictObject({ rich_text: Type.Optional(RichText), color: Type.Optional(Color), is_toggleable: Type.Optional(Type.Boolean()) });
    case 'bulleted_list_item':
    case 'toggle':
    case 'quote':
      return StrictObject({ rich_text: Type.Optional(RichText), color: Type.Optional(Color) });
    case 'numbered_list_item':
      return StrictObject({
        rich_text: Type.Optional(RichText),
        color: Type.Optional(Color),
        list_start_index: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
        list_format: Type.Optional(ListFormat),
      });
    case 'to_do':
      return StrictObject({ rich_text: Type.Optional(RichText), color: Type.Optional(Color), checked: Type.Optional(Type.Boolean()) });
    case 'code':
      return StrictObject({ rich_text: Type.Optional(RichText), language: Type.Optional(Language), caption: Caption });
    case 'divider':
    case 'breadcrumb':
    case 'column_list':
      return Empty;
    case 'equation':
      return StrictObject({ expression: Type.Optional(Type.String({ maxLength: LIMITS.equation })) });
    case 'image':
    case 'video':
    case 'audio':
    case 'pdf':
      return mediaMember(false, true);
    case 'file':
      return mediaMember(true, true);
    case 'bookmark':
    case 'embed':
      return StrictObject({ url: Type.Optional(Url), caption: Caption });
    case 'table':
      return StrictObject({ has_column_header: Type.Optional(Type.Boolean()), has_row_header: Type.Optional(Type.Boolean()) });
    case 'table_row':
      return StrictObject({ cells: Type.Optional(Type.Array(RichText, { maxItems: LIMITS.arrayItems })) });
    case 'column':
      return StrictObject({ width_ratio: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1 })) });
    case 'synced_block':
      return StrictObject({ synced_from: syncedFrom });
    case 'link_to_page':
      return linkToPageMember;
    case 'table_of_contents':
      return StrictObject({ color: Type.Optional(Color) });
  }
}

const updateMembers: Record<string, TSchema> = {};
for (const t of WRITABLE_BLOCK_TYPES) updateMembers[t] = Type.Optional(updateMember(t));

/** `children` of append-block-children and of page creation: ≤100 blocks, two nesting levels. */
export const BlockRequestArray = Type.Array(Type.Ref(ID.level[0]), { maxItems: BLOCK_LIMITS.children });

export const AppendChildrenBody = StrictObject({ children: BlockRequestArray, position: Type.Optional(ContentPosition) });

/** PATCH /v1/blocks/{id}: at most one type member (checked in the command), and `in_trash`. */
export const UpdateBlockBody = StrictObject({
  type: Type.Optional(Type.Enum([...WRITABLE_BLOCK_TYPES])),
  in_trash: Type.Optional(Type.Boolean()),
  ...updateMembers,
});

/**
 * Every shared part, registered once with the body validator: the exported schemas refer to the
 * parts by `$id` and carry no copy, so a body may embed them any number of times (Ajv refuses an
 * `$id` that appears twice in one schema) and each part is compiled once for all routes.
 * Another Ajv instance must add BLOCK_SCHEMA_DEFINITIONS first.
 */
export const BLOCK_SCHEMA_DEFINITIONS = { $id: 'folio:blocks', $defs: { ...LEVELS, ...sharedDefs } };
export interface UpdateBlockInput {
  type?: WritableBlockType;
  in_trash?: boolean;
  [member: string]: unknown;
}

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
