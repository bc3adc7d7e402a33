import { SEARCH_QUERY, type BenchWorkspace } from './workspace.js';

/**
 * The version both targets are sent: the published document's default (its `Notion-Version`
 * parameter), which Folio serves too, so that both answer the same dialect.
 */
export const DOCUMENT_VERSION = '2025-09-03';

export const CREATED_TITLE = 'Created by the bench';
export const APPENDED_TEXT = 'Appended by the bench';

/** One request type of the mix: the request, and how an answer to it is judged. */
export interface BenchRequest {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  /** Whether it writes: writes run after the reads, so that what they add does not weigh on the reads. */
  writes: boolean;
  /** Null when the answer is right; otherwise why not, in a few words. */
  judge(status: number, answer: any): string | null;
}

const plain = (id: unknown) => String(id ?? '').replace(/-/g, '');
const titleOf = (page: any): string =>
  Object.values<any>(page?.properties ?? {})
    .find((p) => p?.type === 'title')
    ?.title?.map((t: any) => t.plain_text ?? t.text?.content ?? '')
    .join('') ?? '';

function describe(answer: unknown): string {
  const text = JSON.stringify(answer) ?? 'nothing';
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** The judge's common first step: a 200 carrying the expected object, else why not. */
function objectCheck(status: number, answer: any, object: string): string | null {
  if (status !== 200) return `answered ${status}`;
  if (answer?.object !== object) return `object is not "${object}": ${describe(answer)}`;
  return null;
}

export function benchRequests(w: BenchWorkspace): BenchRequest[] {
  return [
    {
      name: 'search',
      method: 'POST',
      path: '/v1/search',
      body: { query: SEARCH_QUERY, page_size: 100 },
      writes: false,
      judge(status, answer) {
        const wrong = objectCheck(status, answer, 'list');
        if (wrong) return wrong;
        const titles = (answer.results ?? []).map(titleOf).sort();
        const expected = [...w.searchTitles].sort();
        return JSON.stringify(titles) === JSON.stringify(expected) ? null : `titles ${JSON.stringify(titles)}, expected the ${expected.length} seeded`;
      },
    },
    {
      name: 'retrieve page',
      method: 'GET',
      path: `/v1/pages/${w.pageId}`,
      writes: false,
      judge(status, answer) {
        const wrong = objectCheck(status, answer, 'page');
        if (wrong) return wrong;
        if (plain(answer.id) !== plain(w.pageId)) return `id ${answer.id}, not the one asked for`;
        return titleOf(answer) === w.searchTitles[0] ? null : `title "${titleOf(answer)}", not the seeded one`;
      },
    },
    {
      name: 'data-source query',
      method: 'POST',
      path: `/v1/data_sources/${w.dataSourceId}/query`,
      body: { filter: { property: 'Status', select: { equals: 'Blocked' } }, page_size: 100 },
      writes: false,
      judge(status, answer) {
        const wrong = objectCheck(status, answer, 'list');
        if (wrong) return wrong;
        const rows: any[] = answer.results ?? [];
        const off = rows.filter((r) => r?.properties?.Status?.select?.name !== 'Blocked');
        if (off.length) return `${off.length} of ${rows.length} rows do not match the filter`;
        return rows.length === w.blockedRows ? null : `${rows.length} rows, ${w.blockedRows} seeded`;
      },
    },
    {
      name: 'users-me',
      method: 'GET',
      path: '/v1/users/me',
      writes: false,
      judge(status, answer) {
        const wrong = objectCheck(status, answer, 'user');
        if (wrong) return wrong;
        if (answer.type !== 'bot') return `type "${answer.type}", not bot`;
        return plain(answer.id) === plain(w.botId) ? null : `the bot ${answer.id}, not the token's ${w.botId}`;
      },
    },
    {
      name: 'create page',
      method: 'POST',
      path: '/v1/pages',
      // No children: the document types them as strings, so Prism refuses block objects there.
      body: { parent: { page_id: w.parentId }, properties: { title: { title: [{ text: { content: CREATED_TITLE } }] } } },
      writes: true,
      judge(status, answer) {
        const wrong = objectCheck(status, answer, 'page');
        if (wrong) return wrong;
        if (plain(answer.parent?.page_id) !== plain(w.parentId)) return `parent ${describe(answer.parent)}, not the one sent`;
        return titleOf(answer) === CREATED_TITLE ? null : `title "${titleOf(answer)}", not the one sent`;
      },
    },
    {
      name: 'append blocks',
      method: 'PATCH',
      path: `/v1/blocks/${w.appendTargetId}/children`,
      // No `object: 'block'`: the document's block request schema allows no other keys, so Prism refuses it.
      body: { children: [{ type: 'paragraph', paragraph: { rich_text: [{ type: 'text', text: { content: APPENDED_TEXT } }] } }] },
      writes: true,
      judge(status, answer) {
        const wrong = objectCheck(status, answer, 'list');
        if (wrong) return wrong;
        const blocks: any[] = answer.results ?? [];
        const appended = blocks.some((b) => b?.type === 'paragraph' && b.paragraph?.rich_text?.map((t: any) => t.plain_text).join('') === APPENDED_TEXT);
        return appended ? null : `the appended paragraph is not among ${blocks.length} blocks returned`;
      },
    },
  ];
}
