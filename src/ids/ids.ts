import { randomUUID } from 'node:crypto';
import { ValidationFailure } from '../errors/validationFailure.js';

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** Ids are accepted with or without dashes (FACTS.md §6) and stored dashed and lower-case. */
export function normalizeId(raw: string): string | null {
  if (!UUID.test(raw)) return null;
  const hex = raw.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function newId(): string {
  return randomUUID();
}

/** A path id that is not a UUID at all is a validation error, as the service answers. */
export function parseIdParam(raw: string, field: string): string {
  const id = normalizeId(raw);
  if (!id) {
    throw new ValidationFailure({ part: 'path', path: [field], rule: { name: 'format', format: 'uuid' }, actual: { json: raw.slice(0, 100) } });
  }
  return id;
}
