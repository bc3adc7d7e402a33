import { normalizeValue } from '../../domain/properties/normalizeValue.js';
import type { ValueContext } from '../../domain/properties/valueContext.js';
import type { RichTextItem } from '../../domain/richText.js';
import type { Property } from '../../domain/properties/schemaTypes.js';
import { invalidField } from '../../errors/validationFailure.js';

const TITLE: Property = { id: 'title', name: 'title', description: null, type: 'title', title: {} };

/**
 * A page outside a data source has one property, its title. It may be written `{title: [...]}`
 * or, as older clients do, as the bare rich text array.
 */
export async function titleOnlyValues(ctx: ValueContext, properties: Record<string, unknown>): Promise<RichTextItem[]> {
  let title: RichTextItem[] = [];
  for (const [key, input] of Object.entries(properties)) {
    if (key !== 'title') throw invalidField(['properties', key], 'should be not present: a page outside a data source only has a title property', input);
    const value = await normalizeValue(ctx, TITLE, Array.isArray(input) ? { title: input } : input, ['properties', key]);
    title = value.title as RichTextItem[];
  }
  return title;
}
