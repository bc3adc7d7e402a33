import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import { findObjects } from '../../storage/repositories/objects.js';
import { compileSchema, type CompiledSchema } from '../properties/formulaSchema.js';
import { parsedSchema } from '../properties/parsedSchemas.js';
import { configOf, type Property, type RelationConfig, type Schema } from '../properties/schemaTypes.js';

/** Schemas of the data source and those its relations reach (two hops: a rollup's rolled-up property may itself be a rollup). */
export async function relatedSchemas(db: Db, source: ObjectRow, schema: Schema): Promise<Map<string, Schema>> {
  const schemas = new Map<string, Schema>([[source.id, schema]]);
  let frontier = [source.id];
  for (let hop = 0; hop < 2 && frontier.length > 0; hop++) {
    const targets = new Set<string>();
    for (const id of frontier) {
      for (const p of Object.values(schemas.get(id) ?? {})) {
        if (p.type === 'relation') targets.add(configOf<RelationConfig>(p).data_source_id);
      }
    }
    const missing = [...targets].filter((id) => !schemas.has(id));
    for (const row of await findObjects(db, missing)) {
      if (row.object === 'data_source') schemas.set(row.id, parsedSchema(row.id, row.content).schema);
    }
    frontier = missing;
  }
  return schemas;
}

/** A formula's result type as filters key it, from the schema's compiled formulas. */
export function formulaResults(schemas: ReadonlyMap<string, Schema>): (property: Property) => 'string' | 'number' | 'checkbox' | 'date' {
  const compiled = new Map<Schema, CompiledSchema>();
  return (property) => {
    const owner = [...schemas.values()].find((s) => s[property.id] === property);
    if (!owner) return 'string';
    let schemaCompiled = compiled.get(owner);
    if (!schemaCompiled) {
      schemaCompiled = compileSchema(owner, (id) => schemas.get(id));
      compiled.set(owner, schemaCompiled);
    }
    const result = schemaCompiled.formulas.get(property.id);
    const kind = result?.ok ? result.formula.resultType.kind : 'string';
    return kind === 'boolean' ? 'checkbox' : kind === 'number' || kind === 'date' ? kind : 'string';
  };
}
