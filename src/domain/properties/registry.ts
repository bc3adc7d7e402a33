import type { PropertyType } from '../../schemas/propertyTypes.js';
import type { PropertyTypeDefinition } from './types/definition.js';
import { createdBy, lastEditedBy } from './types/authors.js';
import { checkbox } from './types/checkbox.js';
import { email, phoneNumber, url } from './types/contact.js';
import { date } from './types/date.js';
import { files } from './types/files.js';
import { formula } from './types/formula.js';
import { multiSelect } from './types/multiSelect.js';
import { number } from './types/number.js';
import { people } from './types/people.js';
import { relation } from './types/relation.js';
import { richText, title } from './types/richText.js';
import { rollup } from './types/rollup.js';
import { select } from './types/select.js';
import { status } from './types/status.js';
import { createdTime, lastEditedTime } from './types/timestamps.js';
import { uniqueId } from './types/uniqueId.js';
import { verification } from './types/verification.js';

/**
 * Every rule of every property type, by type: the one place a type is defined (issue 10). The
 * mapped type makes a type of PROPERTY_TYPES without a definition, or a definition without a
 * member, a compile error, and an object literal may not name a type outside the list.
 */
export const PROPERTY_TYPE_DEFINITIONS: { readonly [T in PropertyType]: PropertyTypeDefinition } = {
  title,
  rich_text: richText,
  number,
  select,
  multi_select: multiSelect,
  status,
  date,
  people,
  files,
  checkbox,
  url,
  email,
  phone_number: phoneNumber,
  formula,
  relation,
  rollup,
  created_time: createdTime,
  created_by: createdBy,
  last_edited_time: lastEditedTime,
  last_edited_by: lastEditedBy,
  unique_id: uniqueId,
  verification,
};

/** By name, for type names read from stored JSON (a Map, so `constructor` or `__proto__` find nothing). */
const byName: ReadonlyMap<string, PropertyTypeDefinition> = new Map(Object.entries(PROPERTY_TYPE_DEFINITIONS));

/** The definition of a property type, or undefined for a name that is none (a value written by an older server). */
export function definitionOf(type: string): PropertyTypeDefinition | undefined {
  return byName.get(type);
}

/** Values the server computes; a request that sets one is refused (FACTS.md §2: rollups are not writable). */
export function isComputed(type: PropertyType): boolean {
  return PROPERTY_TYPE_DEFINITIONS[type].normalize === null;
}
