import type { ObjectRow } from '../../storage/schema.js';
import { parseContent, type DataSourceContent } from '../../domain/contentShapes.js';
import { findProperty, type Schema } from '../../domain/properties/schemaTypes.js';

/** The property ids a request's `properties` set (names or ids), which a template then leaves alone. */
export function givenProperties(dataSource: ObjectRow | null | undefined, properties: Record<string, unknown> | undefined): string[] {
  const keys = Object.keys(properties ?? {});
  if (!dataSource) return keys.length > 0 ? ['title'] : [];
  const schema = parseContent<DataSourceContent>(dataSource.content).properties as Schema;
  return keys.map((key) => findProperty(schema, key)?.id).filter((id): id is string => id !== undefined);
}
