import { parseContent, type DataSourceContent } from '../contentShapes.js';
import type { Schema } from './schemaTypes.js';

export interface ParsedSchema {
  schema: Schema;
  /** Property id → name. */
  names: ReadonlyMap<string, string>;
}

/** Recently seen data source schemas, parsed, by data source id, with the stored JSON they came from. */
const schemasById = new Map<string, { content: string; parsed: ParsedSchema }>();
const SCHEMA_CACHE_SIZE = 2000;

/**
 * A data source's schema from its stored content. Parsing a schema costs more than comparing its
 * text, and reads (search, queries, presenting pages) meet the same few schemas again and again,
 * which rarely change, so parsed schemas are remembered with the exact stored text they came
 * from: an edited schema no longer compares equal. Keyed by id rather than by the text, which
 * would hash every schema's whole text on every read. Callers only read them, and may rely on a
 * schema keeping its identity while its text does (per-schema caches key on it).
 */
export function parsedSchema(id: string, content: string): ParsedSchema {
  const cached = schemasById.get(id);
  if (cached && cached.content === content) return cached.parsed;
  const schema = (parseContent<DataSourceContent>(content).properties ?? {}) as Schema;
  const parsed = { schema, names: new Map(Object.values(schema).map((p) => [p.id, p.name])) };
  if (!cached && schemasById.size >= SCHEMA_CACHE_SIZE) schemasById.delete(schemasById.keys().next().value as string);
  schemasById.set(id, { content, parsed });
  return parsed;
}
