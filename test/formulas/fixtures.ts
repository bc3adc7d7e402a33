import type { DateValue, FormulaContext, FormulaPropertyInfo, FormulaType, FormulaValue, PageValue, PersonValue } from '../../src/domain/formulas/index.js';

/** Saturday, ISO week 24. Every case is evaluated at this instant. */
export const NOW = new Date('2024-06-15T12:34:56.000Z');
export const PAGE_ID = 'page-0001';

const text: FormulaType = { kind: 'string' };
const number: FormulaType = { kind: 'number' };
const boolean: FormulaType = { kind: 'boolean' };
const date: FormulaType = { kind: 'date' };
const person: FormulaType = { kind: 'person' };
const listOf = (of: FormulaType): FormulaType => ({ kind: 'list', of });

export const ADA: PersonValue = { kind: 'person', id: 'user-ada', name: 'Ada Lovelace', email: 'ada@example.com' };
export const ALAN: PersonValue = { kind: 'person', id: 'user-alan', name: 'Alan Turing', email: null };

export const dateValue = (start: string, end: string | null = null): DateValue => ({ start, end, time_zone: null });

/** Schema of the data source that "Tasks" relates to. */
export const TASK_PROPERTIES: FormulaPropertyInfo[] = [
  { id: 'title', name: 'Name', type: text },
  { id: 't-status', name: 'Status', type: text },
  { id: 't-points', name: 'Points', type: number },
  { id: 't-done', name: 'Done', type: boolean },
  { id: 't-due', name: 'Due', type: date },
];

export interface TaskFixture {
  id: string;
  Name: string;
  Status: string;
  Points: number | null;
  Done: boolean;
  Due: DateValue | null;
}

export const TASKS: TaskFixture[] = [
  { id: 'task-1', Name: 'Design', Status: 'Done', Points: 3, Done: true, Due: dateValue('2024-06-01') },
  { id: 'task-2', Name: 'Build', Status: 'In progress', Points: 5, Done: false, Due: dateValue('2024-06-20') },
  { id: 'task-3', Name: 'Ship', Status: 'Not started', Points: null, Done: false, Due: null },
];

export function taskPage(task: TaskFixture): PageValue {
  return {
    kind: 'page',
    id: task.id,
    title: task.Name,
    getProperty(name: string): FormulaValue {
      switch (name) {
        case 'Name':
          return task.Name;
        case 'Status':
          return task.Status;
        case 'Points':
          return task.Points;
        case 'Done':
          return task.Done;
        case 'Due':
          return task.Due;
        default:
          return null;
      }
    },
  };
}

export const TASK_PAGES: PageValue[] = TASKS.map(taskPage);

/** Schema of the data source whose pages the cases evaluate. "Tasks" is a relation. */
export const PROPERTIES: FormulaPropertyInfo[] = [
  { id: 'title', name: 'Name', type: text },
  { id: 'p-count', name: 'Count', type: number },
  { id: 'p-price', name: 'Price', type: number },
  { id: 'p-blank-number', name: 'Blank Number', type: number },
  { id: 'p-done', name: 'Done', type: boolean },
  { id: 'p-text', name: 'Text', type: text },
  { id: 'p-blank-text', name: 'Blank Text', type: text },
  { id: 'p-due', name: 'Due', type: date },
  { id: 'p-meeting', name: 'Meeting', type: date },
  { id: 'p-range', name: 'Range', type: date },
  { id: 'p-blank-date', name: 'Blank Date', type: date },
  { id: 'p-tags', name: 'Tags', type: listOf(text) },
  { id: 'p-scores', name: 'Scores', type: listOf(number) },
  { id: 'p-owner', name: 'Owner', type: person },
  { id: 'p-people', name: 'People', type: listOf(person) },
  { id: 'p-tasks', name: 'Tasks', type: listOf({ kind: 'page' }) },
];

export const BASE_VALUES: Record<string, FormulaValue> = {
  Name: 'Alpha Project',
  Count: 5,
  Price: 2.5,
  'Blank Number': null,
  Done: true,
  Text: 'Hello World',
  'Blank Text': null,
  Due: dateValue('2024-01-31'),
  Meeting: dateValue('2024-03-10T14:30:00.000Z'),
  Range: dateValue('2024-01-01', '2024-01-05'),
  'Blank Date': null,
  Tags: ['b', 'a', 'c', 'a'],
  Scores: [3, 1, 2],
  Owner: ADA,
  People: [ADA, ALAN],
  Tasks: TASK_PAGES,
};

export function relatedSchemas(relationName: string): FormulaPropertyInfo[] | undefined {
  return relationName === 'Tasks' ? TASK_PROPERTIES : undefined;
}

export function contextFor(overrides: Record<string, FormulaValue> = {}): FormulaContext {
  const values: Record<string, FormulaValue> = { ...BASE_VALUES, ...overrides };
  return {
    now: NOW,
    pageId: PAGE_ID,
    getProperty: (name) => (name in values ? values[name] : null),
  };
}
