import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { BlockInput } from '../../schemas/blocks.js';
import type { FieldPath } from '../../errors/validationFailure.js';
import { validationFailureOf } from '../../errors/validationMessage.js';
import { BLOCK_SCHEMA_DEFINITIONS } from './requestSchemas.js';
import { isWritableBlockType, writableDefinition } from './registry.js';

/**
 * The request schema's checks of each block's own member (lengths, URLs, enums, item counts), for
 * blocks the server read from markdown rather than from a JSON body: a markdown tree may nest
 * deeper than a request's two levels, so each member is checked alone, without its children (a
 * table with its rows, which it holds as its own). Unknown types are left to checkBlockTree.
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: false, verbose: true, strict: false, coerceTypes: false, useDefaults: false, removeAdditional: false }));
ajv.addSchema(BLOCK_SCHEMA_DEFINITIONS);
const compiled = new Map<string, ValidateFunction>();

function validatorOf(type: string): ValidateFunction | null {
  if (!isWritableBlockType(type)) return null;
  const definition = writableDefinition(type);
  // Column lists and columns are checked through what they hold; their own members are empty or a width.
  if (definition.holds === 'own' && type !== 'table') return null;
  if (definition.livesIn === 'column_list') return null;
  let validate = compiled.get(type);
  if (!validate) {
    validate = ajv.compile(definition.request.create(null) as object);
    compiled.set(type, validate);
  }
  return validate;
}

export function checkMemberShapes(blocks: readonly BlockInput[], path: FieldPath): void {
  blocks.forEach((block, i) => {
    const type = String(block.type);
    const member = (block as unknown as Record<string, Record<string, unknown>>)[type] ?? {};
    // A hosted file's reference is the server's own writing (src/commands/markdown/fileLinks.ts), not a request's.
    const validate = 'file' in member ? null : validatorOf(type);
    const { children, ...own } = member;
    const checked = type === 'table' ? member : own;
    if (validate && !validate(checked)) {
      const failure = validationFailureOf('body', validate.errors ?? []);
      throw failure.at([...path, i, type, ...failure.path]);
    }
    if (type !== 'table' && Array.isArray(children)) checkMemberShapes(children as BlockInput[], [...path, i, type, 'children']);
  });
}
