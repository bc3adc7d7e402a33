import { Type, type TSchema } from 'typebox';
import { StrictObject } from '../../schemas/common.js';
import { BLOCK_SCHEMA_IDS as ID, SHARED_BLOCK_DEFS, sharedBlockPart } from '../../schemas/blocks.js';
import { BLOCK_MEMBERS_KEYWORD } from '../../errors/validationMessage.js';
import { BLOCK_TYPE_DEFINITIONS, WRITABLE_BLOCK_TYPES, type WritableBlockType } from './registry.js';

/**
 * The block request schemas that list the block types, built from the registry (FACTS.md §2
 * "Blocks", §6 limits, §9 "Block (common)"). The service validates a request body level by level:
 * an appended block may carry children, and those children may carry children once more ("up to
 * 2 nesting levels per request"); a third level is refused by the schema itself as `…children
 * should be not present`, the wording FACTS.md §6 quotes. Columns inside a column list do not use
 * up a level, as in the SDK's request types.
 */

/**
 * A block at nesting level `level`: one object with every type's member optional, so a mistake
 * is reported at its exact path. That exactly one member is given (and matches `type`) is a
 * domain check (src/domain/blocks/checkBlockTree.ts): a schema union would name a wrong branch.
 * Types that hold blocks get a member per level (its children are the next level); the others
 * one shared member.
 */
function blockAtLevel(level: number, types: readonly WritableBlockType[], id: string): TSchema {
  const next = level < 2 ? Type.Ref(ID.level[level + 1]) : null;
  const members: Record<string, TSchema> = {};
  for (const t of types) {
    const { request, holds } = BLOCK_TYPE_DEFINITIONS[t];
    members[t] = Type.Optional(holds === 'blocks' ? request.create(next) : sharedBlockPart(`create-${t}`, request.create(null)));
  }
  return Type.Object(
    { object: Type.Optional(Type.Literal('block')), type: Type.Optional(Type.Enum([...types])), ...members },
    // Marks the schema of one request block: its unknown keys are unknown block types (src/errors/validationMessage.ts).
    { additionalProperties: false, $id: id, [BLOCK_MEMBERS_KEYWORD]: true },
  );
}

const typesAtLevel = (level: number) => WRITABLE_BLOCK_TYPES.filter((t) => BLOCK_TYPE_DEFINITIONS[t].request.deepestLevel >= level);
const COLUMN_TYPES = WRITABLE_BLOCK_TYPES.filter((t) => BLOCK_TYPE_DEFINITIONS[t].livesIn === 'column_list');
const LEVELS = {
  level0: blockAtLevel(0, typesAtLevel(0), ID.level[0]),
  level1: blockAtLevel(1, typesAtLevel(1), ID.level[1]),
  level2: blockAtLevel(2, typesAtLevel(2), ID.level[2]),
  column: blockAtLevel(0, COLUMN_TYPES, ID.column),
};

/** Update members: every field optional; a given field replaces the stored one (FACTS.md §2). */
const updateMembers: Record<string, TSchema> = {};
for (const t of WRITABLE_BLOCK_TYPES) updateMembers[t] = Type.Optional(BLOCK_TYPE_DEFINITIONS[t].request.update);

/** PATCH /v1/blocks/{id}: at most one type member (checked in the command), and `in_trash`. */
export const UpdateBlockBody = StrictObject({
  type: Type.Optional(Type.Enum([...WRITABLE_BLOCK_TYPES])),
  in_trash: Type.Optional(Type.Boolean()),
  ...updateMembers,
});

export interface UpdateBlockInput {
  type?: WritableBlockType;
  in_trash?: boolean;
  [member: string]: unknown;
}

/**
 * Every shared part, registered once with the body validator: the exported schemas refer to the
 * parts by `$id` and carry no copy, so a body may embed them any number of times (Ajv refuses an
 * `$id` that appears twice in one schema) and each part is compiled once for all routes.
 * The http layer adds it to Fastify with `addSchema` before any route (src/http/sharedSchemas.ts),
 * so every validator compiled for a route can resolve the parts.
 */
export const BLOCK_SCHEMA_DEFINITIONS = { $id: 'folio:blocks', $defs: { ...LEVELS, ...SHARED_BLOCK_DEFS } };
