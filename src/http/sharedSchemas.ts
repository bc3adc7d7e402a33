import type { App } from './app.js';
import { BLOCK_SCHEMA_DEFINITIONS } from '../domain/blocks/requestSchemas.js';

/**
 * The schemas routes refer to by `$id` instead of embedding them (the block levels and the parts
 * they share: src/domain/blocks/requestSchemas.ts says why). Registered explicitly with Fastify's `addSchema`,
 * before any route, so its schema controller hands them to the validator compiler
 * (src/http/validators.ts); importing a schema module registers nothing.
 */
export const SHARED_SCHEMAS: readonly { $id: string }[] = [BLOCK_SCHEMA_DEFINITIONS];

export function addSharedSchemas(app: App): void {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
}

/** The shared schemas by `$id`, as Fastify's schema controller passes them to the compilers factory. */
export function sharedSchemasById(): Record<string, unknown> {
  return Object.fromEntries(SHARED_SCHEMAS.map((schema) => [schema.$id, schema]));
}
