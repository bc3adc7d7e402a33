import type { StoredValue } from './normalizeValue.js';
import { configOf, type Property, type StatusConfig } from './schemaTypes.js';

/**
 * The value a page holds for a property it was never given: what the service shows for an empty
 * cell. A status starts at the first option of the To-do group, as new rows do in the service.
 */
export function emptyValue(property: Property): StoredValue {
  const v = (member: unknown): StoredValue => ({ type: property.type, [property.type]: member });
  switch (property.type) {
    case 'title':
    case 'rich_text':
    case 'multi_select':
    case 'people':
    case 'relation':
    case 'files':
      return v([]);
    case 'checkbox':
      return v(false);
    case 'status': {
      const config = configOf<StatusConfig>(property);
      const first = config.options.find((o) => o.group === 'To-do');
      return v(first ? { id: first.id, name: first.name, color: first.color } : null);
    }
    case 'verification':
      return v({ state: 'unverified', date: null, verified_by: null });
    case 'formula':
      return v({ type: 'string', string: null });
    case 'rollup':
      return v({ type: 'number', number: null, function: (property.rollup as { function: string }).function });
    case 'unique_id':
      return v({ prefix: (property.unique_id as { prefix: string | null }).prefix, number: null });
    default:
      return v(null);
  }
}
