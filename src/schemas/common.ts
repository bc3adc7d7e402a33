import { Type, type TProperties } from 'typebox';

/** Objects refuse unknown keys: the service validates strictly since 2021-08-16. */
export function StrictObject<T extends TProperties>(properties: T) {
  return Type.Object(properties, { additionalProperties: false });
}

/** Ids arrive with or without dashes (FACTS.md §6); normalizeId canonicalises them after validation. */
export const IdString = Type.String({ pattern: '^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$' });

export const PageSizeQuery = Type.Integer({ minimum: 1, maximum: 100 });

export const PaginationQuery = StrictObject({
  start_cursor: Type.Optional(Type.String({ maxLength: 2000 })),
  page_size: Type.Optional(PageSizeQuery),
});
