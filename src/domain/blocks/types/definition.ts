import type { TSchema } from 'typebox';
import type { Db } from '../../../storage/db.js';
import type { ObjectRow } from '../../../storage/schema.js';
import type { FieldPath } from '../../../errors/validationFailure.js';
import type { BlockContent } from '../../contentShapes.js';
import { parseContent } from '../../contentShapes.js';
import type { MentionResolver, RichTextItem } from '../../richText.js';
import type { MarkdownBlock, MarkdownNode, ParsedForm, RenderContext } from '../../markdown/nodes.js';

/** A request member or a stored member, read field by field. */
export type Member = Record<string, unknown>;

/** The parent new blocks go under: `page`, or a block type (with a table's width), or a kind no request may add to. */
export interface ParentKind {
  kind: string;
  tableWidth?: number;
}

/**
 * What building a stored member from a request member needs (src/domain/blocks/blockContent.ts).
 * `base` is the stored member (empty for a new block): a field given in `input` replaces its
 * counterpart, an omitted one keeps its stored value or, for a new block, the default.
 */
export interface ContentInput {
  input: Member;
  base: BlockContent;
  resolver: MentionResolver;
  /** Rich text of `key`, normalised (plain_text, href) when given, else the stored one or empty. */
  rich(key: string): Promise<RichTextItem[]>;
  /** The given value of `key`, else the stored one, else `fallback`. */
  keep<T>(key: string, fallback: T): T;
  /** `color`, `default` unless given or stored. */
  color(): string;
}

/** What a request may write of a type: absent for the types the API only presents. */
export interface BlockRequest {
  /**
   * The member schema of a new block. For a type that holds blocks, `next` refers to a child
   * block one level down, or is null at the deepest level; other types get null.
   */
  create(next: TSchema | null): TSchema;
  /** The member schema of an edit (PATCH /v1/blocks/{id}): every field optional. */
  update: TSchema;
  /** The deepest nesting level of a request the type may appear at (0 = the appended block itself). */
  deepestLevel: 0 | 1 | 2;
  /** Request member → the stored member, which is already the response member at HEAD (FACTS.md §9). */
  build(content: ContentInput): Promise<BlockContent>;
}

/**
 * The markdown form of a type (NFM v1, FACTS.md §10.1 1.3): the converter (src/domain/markdown/)
 * walks the registry and asks each type; a type without a form (null) is written `<unknown …/>`.
 */
export interface BlockMarkdown {
  /** The block (its member as the block object shows it, and its children) as lines; children one tab deeper. */
  render(block: MarkdownBlock, ctx: RenderContext): string[];
  /** A split markdown block as the type's request member and the nodes of its children, or null when it is not one. */
  parse(node: MarkdownNode): ParsedForm | null;
}

/** Media blocks: their source is a link or a hosted file (FACTS.md §8). */
export interface MediaRules {
  /** The member shows a file name (file blocks). */
  named: boolean;
  /** A meeting note may take its recording from the block's file (audio, video, file). */
  recording: boolean;
}

/**
 * What children a type holds: any block that lives anywhere (`blocks`), only the types that live
 * in it alone (`own`: a table's rows, a column list's columns), or none.
 */
export type Holds = 'blocks' | 'own' | 'nothing';

/** Everything the server knows about one block type; src/domain/blocks/registry.ts holds one per type. */
export interface BlockTypeDefinition {
  /** What a request may write; null for the types the API presents but does not accept. */
  request: BlockRequest | null;
  /** The member holds `rich_text` (the 2022-02-22 rename applies to these). */
  richText: boolean;
  /** The member has a `caption`. */
  caption: boolean;
  media: MediaRules | null;
  holds: Holds;
  /** The one type this type may be a child of (rows in tables, columns in column lists); null when any that holds blocks. */
  livesIn: string | null;
  /** The member as the block object shows it (FACTS.md §9), in the order the service writes its fields. */
  present(row: ObjectRow): Member;
  markdown: BlockMarkdown | null;
  /** What a block of this type is, as the parent of new blocks (default: its type). */
  asParent?(content: Member): ParentKind;
  /** The block whose children this one shows, when not itself. */
  childrenFrom?(content: Member): string | null;
  /**
   * Checks of a new block that a schema cannot express, on the request member (with its
   * `children`); `at` is the member's path in the body.
   */
  checkNew?(member: Member, at: FieldPath, parent: ParentKind): void;
  /** Checks of a new block that need the store (run after checkNew on the whole tree). */
  checkNewInStore?(db: Db, member: Member, at: FieldPath, workspaceId: string): Promise<void>;
  /** Checks of an edit that a schema cannot express; `at` is the member's path in the body. */
  checkEdit?(db: Db, row: ObjectRow, member: Member, at: FieldPath): Promise<void>;
}

/** A type a request may write. */
export type WritableBlockTypeDefinition = BlockTypeDefinition & { request: BlockRequest };
/** A type the API presents but does not accept. */
export type ReadOnlyBlockTypeDefinition = BlockTypeDefinition & { request: null };

/** Presents the stored member's `fields`, in that order, leaving out the absent ones. */
export function presentFields(...fields: string[]): (row: ObjectRow) => Member {
  return (row) => {
    const content = parseContent<BlockContent>(row.content);
    const member: Member = {};
    for (const field of fields) if (content[field] !== undefined) member[field] = content[field];
    return member;
  };
}

/** The defaults of a definition: no rich text, caption or media, no children, no markdown form yet. */
export const PLAIN = {
  richText: false,
  caption: false,
  media: null,
  holds: 'nothing',
  livesIn: null,
  markdown: null,
} as const satisfies Partial<BlockTypeDefinition>;
