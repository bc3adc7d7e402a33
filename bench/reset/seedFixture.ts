import type { FixtureInput, FixtureObject } from '../../src/schemas/fixtures.js';

const id = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const rt = (content: string) => [{ text: { content } }];

/**
 * A seed of `pages` pages like a test suite's: a workspace, a person, a connection with a fixed
 * token, a database whose rows are most of the pages (title, text, number, select, date,
 * checkbox), and the rest plain pages of three blocks each, with a comment on the first.
 */
export function seedFixture(pages: number): FixtureInput {
  const rows = Math.floor(pages * 0.8);
  const plain = pages - rows;
  let next = 100;
  const rowNodes: FixtureObject[] = Array.from({ length: rows }, (_, i) => ({
    id: id(next++),
    properties: {
      title: { type: 'title', title: rt(`Task ${i}`) },
      note: { type: 'rich_text', rich_text: rt(`note ${i}`) },
      size: { type: 'number', number: i },
      kind: { type: 'select', select: i % 2 ? { id: id(3), name: 'A', color: 'red' } : null },
      due: { type: 'date', date: { start: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`, end: null, time_zone: null } },
      done: { type: 'checkbox', checkbox: i % 3 === 0 },
    },
  }));
  const plainNodes: FixtureObject[] = Array.from({ length: plain }, (_, i) => ({
    id: id(next++),
    properties: { title: { type: 'title', title: rt(`Page ${i}`) } },
    children: [
      { type: 'heading_2', heading_2: { rich_text: rt(`Section ${i}`), color: 'default', is_toggleable: false } },
      { type: 'paragraph', paragraph: { rich_text: rt('Some text for the seed.'), color: 'default' } },
      { type: 'to_do', to_do: { rich_text: rt('A thing to do'), checked: false, color: 'default' } },
    ],
  }));
  return {
    workspaces: [
      {
        id: id(1),
        name: 'Bench',
        users: [{ id: id(2), name: 'Ada', email: 'ada@example.com' }],
        connections: [{ name: 'Bench', token: 'secret_folio_bench', shares: [id(10), id(11)] }],
        content: [
          {
            object: 'database',
            id: id(10),
            content: { title: rt('Tasks') },
            children: [
              {
                object: 'data_source',
                content: {
                  title: rt('Tasks'),
                  properties: {
                    title: { id: 'title', name: 'Name', description: null, type: 'title', title: {} },
                    note: { id: 'note', name: 'Note', description: null, type: 'rich_text', rich_text: {} },
                    size: { id: 'size', name: 'Size', description: null, type: 'number', number: { format: 'number' } },
                    kind: {
                      id: 'kind',
                      name: 'Kind',
                      description: null,
                      type: 'select',
                      select: { options: [{ id: id(3), name: 'A', color: 'red', description: null }] },
                    },
                    due: { id: 'due', name: 'Due', description: null, type: 'date', date: {} },
                    done: { id: 'done', name: 'Done', description: null, type: 'checkbox', checkbox: {} },
                  },
                },
                children: rowNodes,
              },
            ],
          },
          { id: id(11), properties: { title: { type: 'title', title: rt('Notes') } }, children: plainNodes },
        ],
        comments: [{ parent_id: id(11), rich_text: rt('Seeded comment') }],
      },
    ],
  };
}
