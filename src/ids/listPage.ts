export interface ListPage<T> {
  object: 'list';
  results: T[];
  next_cursor: string | null;
  has_more: boolean;
  type: string;
  [member: string]: unknown;
}

/** The list envelope of FACTS.md §3: `type` names a member holding an empty object. */
export function listPage<T>(type: string, results: T[], nextCursor: string | null, extra: Record<string, unknown> = {}): ListPage<T> {
  return { object: 'list', results, next_cursor: nextCursor, has_more: nextCursor !== null, type, [type]: {}, ...extra };
}
