/**
 * The filter builder's vocabulary: for each property type, the conditions the API documents
 * (spec, "Filter object") and what each takes. The server checks every filter (and names the field
 * of a bad one), so this table only decides what the builder offers.
 */
export type Operand = 'string' | 'number' | 'boolean' | 'date' | 'true' | 'empty_object' | 'option' | 'verification';

const EMPTY = { is_empty: 'true', is_not_empty: 'true' } as const;
const TEXT = {
  equals: 'string',
  does_not_equal: 'string',
  contains: 'string',
  does_not_contain: 'string',
  starts_with: 'string',
  ends_with: 'string',
  ...EMPTY,
} as const;
const NUMBER = {
  equals: 'number',
  does_not_equal: 'number',
  greater_than: 'number',
  less_than: 'number',
  greater_than_or_equal_to: 'number',
  less_than_or_equal_to: 'number',
  ...EMPTY,
} as const;
const DATE = {
  equals: 'date',
  before: 'date',
  after: 'date',
  on_or_before: 'date',
  on_or_after: 'date',
  past_week: 'empty_object',
  past_month: 'empty_object',
  past_year: 'empty_object',
  this_week: 'empty_object',
  next_week: 'empty_object',
  next_month: 'empty_object',
  next_year: 'empty_object',
  ...EMPTY,
} as const;
const CHECKBOX = { equals: 'boolean', does_not_equal: 'boolean' } as const;
const SELECT = { equals: 'option', does_not_equal: 'option', ...EMPTY } as const;
const MULTI = { contains: 'option', does_not_contain: 'option', ...EMPTY } as const;
const IDS = { contains: 'string', does_not_contain: 'string', ...EMPTY } as const;

export const CONDITIONS: Record<string, Readonly<Record<string, Operand>>> = {
  title: TEXT,
  rich_text: TEXT,
  url: TEXT,
  email: TEXT,
  phone_number: TEXT,
  number: NUMBER,
  unique_id: {
    equals: 'number',
    does_not_equal: 'number',
    greater_than: 'number',
    less_than: 'number',
    greater_than_or_equal_to: 'number',
    less_than_or_equal_to: 'number',
  },
  checkbox: CHECKBOX,
  select: SELECT,
  status: SELECT,
  multi_select: MULTI,
  date: DATE,
  created_time: DATE,
  last_edited_time: DATE,
  people: IDS,
  created_by: IDS,
  last_edited_by: IDS,
  relation: IDS,
  files: EMPTY,
  verification: { status: 'verification' },
};

/** Formulas filter by their result's type; rollups by a number, a date, or any/every/none of their items. */
export const FORMULA_RESULTS = ['string', 'number', 'checkbox', 'date'] as const;
export const ROLLUP_KINDS = ['number', 'date', 'any', 'every', 'none'] as const;
const RESULT_CONDITIONS: Record<string, Readonly<Record<string, Operand>>> = { string: TEXT, number: NUMBER, checkbox: CHECKBOX, date: DATE, rich_text: TEXT };

export interface Condition {
  kind: 'condition';
  property: string;
  type: string;
  /** formula: its result type; rollup: number, date, any, every or none. */
  sub?: string;
  /** rollup any/every/none: the rolled-up items' type. */
  itemType?: string;
  operator: string;
  value: string;
}
export interface Group {
  kind: 'group';
  op: 'and' | 'or';
  items: (Condition | Group)[];
}

export function conditionsFor(c: Pick<Condition, 'type' | 'sub' | 'itemType'>): Readonly<Record<string, Operand>> {
  if (c.type === 'formula') return RESULT_CONDITIONS[c.sub ?? 'string'];
  if (c.type === 'rollup') return c.sub === 'number' || c.sub === 'date' ? RESULT_CONDITIONS[c.sub] : RESULT_CONDITIONS[c.itemType ?? 'rich_text'];
  return CONDITIONS[c.type] ?? {};
}

export const filterable = (type: string) => type in CONDITIONS || type === 'formula' || type === 'rollup';

function operand(kind: Operand | undefined, value: string): unknown {
  switch (kind) {
    case 'number':
      return Number(value);
    case 'boolean':
      return value === 'true';
    case 'true':
      return true;
    case 'empty_object':
      return {};
    default:
      return value;
  }
}

function conditionJson(c: Condition): Record<string, unknown> {
  const kind = conditionsFor(c)[c.operator];
  const inner = { [c.operator]: operand(kind, c.value) };
  if (c.type === 'formula') return { property: c.property, formula: { [c.sub ?? 'string']: inner } };
  if (c.type === 'rollup') {
    const sub = c.sub ?? 'number';
    return { property: c.property, rollup: sub === 'number' || sub === 'date' ? { [sub]: inner } : { [sub]: { [c.itemType ?? 'rich_text']: inner } } };
  }
  return { property: c.property, [c.type]: inner };
}

/** The API's filter object for the builder's tree: a lone condition as itself, groups as `{and|or: […]}`. */
export function filterJson(group: Group): Record<string, unknown> | undefined {
  if (group.items.length === 0) return undefined;
  if (group.items.length === 1 && group.items[0].kind === 'condition') return conditionJson(group.items[0]);
  return { [group.op]: group.items.map((item) => (item.kind === 'condition' ? conditionJson(item) : (filterJson(item) ?? { and: [] }))) };
}
