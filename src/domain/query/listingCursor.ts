import { createHash } from 'node:crypto';
import { invalidField } from '../../errors/validationFailure.js';
import { decodeCursor, encodeCursor } from '../../ids/cursor.js';
import type { Key } from '../../storage/query/selectPage.js';

const CURSOR_SCOPE = 'query';

/** What a listing is: a cursor continues only the listing it was returned for. */
export interface ListingParts {
  dataSourceId: string;
  /** The filter as the caller sent it (null for none). */
  filter: unknown;
  /** The sorts as the caller sent them. */
  sorts: readonly unknown[];
  inTrash: boolean;
  resultType: 'page' | 'data_source';
}

/** Where a cursor continues: how many results came before it and the last row's sort keys. */
export interface ListingPosition {
  seen: number;
  /** The keys of the last row returned, one per order term; null at the start. */
  after: Key[] | null;
}

/** A cursor continues one listing; its key says which, so a cursor of another filter or order is refused. */
export function listingKey(parts: ListingParts): string {
  const json = {
    source: parts.dataSourceId,
    filter: parts.filter,
    sorts: parts.sorts,
    in_trash: parts.inTrash,
    result_type: parts.resultType,
  };
  return createHash('sha256').update(JSON.stringify(json)).digest('base64url').slice(0, 16);
}

export function badCursor(cursor: string, why = 'a cursor returned by this endpoint'): never {
  throw invalidField(['start_cursor'], `should be ${why}`, cursor.slice(0, 100));
}

/**
 * The position a `start_cursor` names in the listing `listing`, or the start without one. Cursors
 * are keysets: the listing's key, the number of results so far (for the 10,000 cap) and the last
 * row's sort keys, creation time and id.
 */
export function readListingCursor(cursor: string | undefined, listing: string): ListingPosition {
  if (cursor === undefined) return { seen: 0, after: null };
  const key = decodeCursor(CURSOR_SCOPE, cursor);
  const [cursorListing, count, keys] = key;
  if (key.length !== 3 || typeof count !== 'number' || !Number.isInteger(count) || count < 0 || typeof keys !== 'string') badCursor(cursor);
  if (cursorListing !== listing) badCursor(cursor, 'a cursor returned for the same data source, filter and sorts');
  let after: Key[] | null = null;
  try {
    after = JSON.parse(keys) as Key[];
  } catch {
    badCursor(cursor);
  }
  if (!Array.isArray(after) || after.some((k) => k !== null && typeof k !== 'string' && typeof k !== 'number')) badCursor(cursor);
  return { seen: count, after };
}

/** The cursor continuing `listing` after `seen` results, the last of them with these sort keys. */
export function listingCursor(listing: string, seen: number, keys: readonly Key[]): string {
  return encodeCursor(CURSOR_SCOPE, [listing, seen, JSON.stringify(keys)]);
}
