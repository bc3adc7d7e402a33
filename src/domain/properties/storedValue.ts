/** A property value as stored and presented: `{type, <type>: value}` (the page object's shape without `id`). */
export interface StoredValue {
  type: string;
  [member: string]: unknown;
}
