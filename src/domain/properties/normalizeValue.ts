import { assertMatches, propertyValueSchema } from '../../schemas/properties.js';
import { invalidField, type FieldPath } from '../../errors/validationFailure.js';
import { VALUE_LIMITS } from '../../schemas/propertyTypes.js';
import { PROPERTY_TYPE_DEFINITIONS } from './registry.js';
import type { Property } from './schemaTypes.js';
import type { StoredValue } from './storedValue.js';
import type { ValueContext } from './valueContext.js';

/**
 * Validates one request value against its property's type and returns the stored value. A wrong
 * type or shape is a validation_error naming the property (`body.properties.<key>…`).
 */
export async function normalizeValue(ctx: ValueContext, property: Property, input: unknown, path: FieldPath): Promise<StoredValue> {
  const schema = propertyValueSchema(property.type);
  const { normalize, multiValued } = PROPERTY_TYPE_DEFINITIONS[property.type];
  if (!schema || !normalize) {
    throw invalidField(path, `should be not present: ${property.name} is a ${property.type} property, which the server computes`, input);
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw invalidField(path, `should be an object with a ${property.type} member`, input);
  }
  const body = input as Record<string, unknown>;
  if (!(property.type in body)) {
    const given = Object.keys(body).find((k) => k !== 'type' && k !== 'id');
    if (given !== undefined)
      throw invalidField([...path, property.type], `should be defined: ${property.name} is a ${property.type} property, not ${given}`, undefined);
  }
  assertMatches(schema, input, path);
  if (multiValued) {
    const list = body[property.type] as unknown[];
    if (list.length > VALUE_LIMITS.listItems) throw invalidField([...path, property.type], `should have at most ${VALUE_LIMITS.listItems} items`, list.length);
  }
  const member = await normalize(ctx, property, body[property.type], [...path, property.type]);
  return { type: property.type, [property.type]: member };
}
