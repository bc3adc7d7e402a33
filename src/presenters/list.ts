import { listPage } from '../ids/listPage.js';

/** The list envelope listPage builds, typed by its `type` and extra members as the response schemas' ListOf describes it. */
export type ListEnvelope<T, K extends string, E extends object = Record<never, never>> = Flat<
  Omit<{ object: 'list'; results: T[]; next_cursor: string | null; has_more: boolean; type: K } & { [P in K]: Record<string, never> }, keyof E> & E
>;
type Flat<T> = { [P in keyof T]: T[P] };

/** listPage (FACTS.md §3) with the literal `type` and members kept in its type, for presenters typed from the schemas. */
export function presentList<T, K extends string, E extends object = Record<never, never>>(
  type: K,
  results: T[],
  nextCursor: string | null,
  extra?: E,
): ListEnvelope<T, K, E> {
  return listPage(type, results, nextCursor, extra as Record<string, unknown> | undefined) as unknown as ListEnvelope<T, K, E>;
}
