import { randomBytes } from 'node:crypto';
import type { FixtureInput, FixtureObject } from '../../src/schemas/fixtures.js';

const id = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const rt = (content: string) => [{ text: { content } }];

export const ROWS = 1000;
/** Every 25th row is blocked: the filtered query matches a few dozen of the thousand. */
const BLOCKED_EVERY = 25;
export const BLOCKED_ROWS = Math.ceil(ROWS / BLOCKED_EVERY);
/** Plain pages under the shared parent, of which a few carry the searched words. */
const NOTES = 200;
const ROADMAP_EVERY = 40;
export const SEARCH_QUERY = 'quarterly roadmap';

/** What the requests address and what a right answer holds. */
export interface BenchWorkspace {
  fixture: FixtureInput;
  token: string;
  botId: string;
  parentId: string;
  dataSourceId: string;
  /** A page retrieved by id: the first roadmap page. */
  pageId: string;
  /** The page blocks are appended to. */
  appendTargetId: string;
  /** Titles containing SEARCH_QUERY. */
  searchTitles: string[];
  blockedRows: number;
}

/**
 * A small workspace as an integration sees it: one connection shared a parent page holding a task
 * database of a thousand rows (title, select, number), two hundred notes of which five match the
 * search, and a page to append to. Fixed ids, so a reader of the record can reproduce it; a fresh
 * token per run, since the server is fresh too.
 */
export function benchWorkspace(): BenchWorkspace {
  const token = `secret_prism_bench_${randomBytes(12).toString('hex')}`;
  const botId = id(5);
  const parentId = id(10);
  const databaseId = id(11);
  const dataSourceId = id(12);
  const appendTargetId = id(13);
  let next = 100;
  const statuses = [
    { id: id(20), name: 'Todo', color: 'gray' },
    { id: id(21), name: 'Doing', color: 'blue' },
    { id: id(22), name: 'Done', color: 'green' },
  ];
  const blocked = { id: id(23), name: 'Blocked', color: 'red' };
  const rows: FixtureObject[] = Array.from({ length: ROWS }, (_, i) => ({
    id: id(next++),
    properties: {
      Name: { type: 'title', title: rt(`Task ${i}`) },
      Status: { type: 'select', select: i % BLOCKED_EVERY === 0 ? blocked : statuses[i % statuses.length] },
      Points: { type: 'number', number: i % 13 },
    },
  }));
  const searchTitles: string[] = [];
  const notes: FixtureObject[] = Array.from({ length: NOTES }, (_, i) => {
    const title = i % ROADMAP_EVERY === 0 ? `Quarterly roadmap ${i / ROADMAP_EVERY + 1}` : `Meeting note ${i}`;
    if (i % ROADMAP_EVERY === 0) searchTitles.push(title);
    return {
      id: id(next++),
      properties: { title: { type: 'title', title: rt(title) } },
      children: [{ type: 'paragraph', paragraph: { rich_text: rt(`Body of ${title}.`), color: 'default' } }],
    };
  });
  const fixture: FixtureInput = {
    workspaces: [
      {
        id: id(1),
        name: 'Prism bench',
        users: [{ id: id(2), name: 'Ada', email: 'ada@example.com' }],
        connections: [{ name: 'Prism bench integration', bot_id: botId, token, shares: [parentId] }],
        content: [
          {
            id: parentId,
            properties: { title: { type: 'title', title: rt('Team home') } },
            children: [
              {
                object: 'database',
                id: databaseId,
                content: { title: rt('Tasks') },
                children: [
                  {
                    object: 'data_source',
                    id: dataSourceId,
                    content: {
                      title: rt('Tasks'),
                      properties: {
                        Name: { id: 'title', name: 'Name', description: null, type: 'title', title: {} },
                        Status: {
                          id: 'stat',
                          name: 'Status',
                          description: null,
                          type: 'select',
                          select: { options: [...statuses, blocked].map((o) => ({ ...o, description: null })) },
                        },
                        Points: { id: 'pnts', name: 'Points', description: null, type: 'number', number: { format: 'number' } },
                      },
                    },
                    children: rows,
                  },
                ],
              },
              { id: appendTargetId, properties: { title: { type: 'title', title: rt('Append target') } } },
              ...notes,
            ],
          },
        ],
      },
    ],
  };
  return { fixture, token, botId, parentId, dataSourceId, pageId: notes[0].id!, appendTargetId, searchTitles, blockedRows: BLOCKED_ROWS };
}
