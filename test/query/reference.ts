/**
 * A plain evaluator of query filters over page objects, written from the spec's "Filter object"
 * section and docs/decisions.md "Queries (issue 12)", as the oracle the SQL filter compiler is
 * checked against (differential.test.ts). It shares no code with src/: it reads pages as
 * GET /v1/pages/{id} shows them and schemas as GET /v1/data_sources/{id} shows them, and decides
 * one page at a time, as slowly and as literally as the decisions read.
 */
import type { QueryDataSourceParameters } from '@notionhq/client';

export type QueryFilter = NonNullable<QueryDataSourceParameters['filter']>;
export type QuerySorts = NonNullable<QueryDataSourceParameters['sorts']>;

type Json = Record<string, any>;

/** A page object as GET /v1/pages/{id} returns it. */
export interface PageObject {
  id: string;
  created_time: string;
  last_edited_time: string;
  created_by: { id: string };
  last_edited_by: { id: string };
  in_trash: boolean;
  parent: { type: string; data_source_id?: string };
  properties: Record<string, Json>;
}

/** A data source as GET /v1/data_sources/{id} returns it: properties by name, each with id, type and configuration. */
export interface DataSourceObject {
  id: string;
  properties: Record<string, Json>;
}

export interface World {
  dataSources: ReadonlyMap<string, DataSourceObject>;
  /** Every page a relation may name, those in the trash included. */
  pages: ReadonlyMap<string, PageObject>;
  /** The connection's user, what `me` names; null for an internal connection. */
  me: string | null;
  /** The query's time: relative dates, windows and verification expiry are read from it. */
  now: Date;
}

const DAY = 86_400_000;
const TEXT_TYPES = new Set(['title', 'rich_text', 'url', 'email', 'phone_number']);

// ---------------------------------------------------------------------------------------------
// Dates

/** A date value as a closed range of UTC instants (decisions: "a value without end is the single instant start"). */
interface Range {
  start: number;
  end: number;
}

/** An operand: an instant (a date-time), or a whole UTC day [from, to) (a date, or a relative date). */
type Operand = { instant: number } | { from: number; to: number };

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Milliseconds of an ISO 8601 date or date-time: no offset is UTC, a date alone is midnight UTC
 * (spec "Date comparison rules"). Parsed by hand: Date.parse reads a date-time without an
 * offset in the local zone.
 */
export function parseIso(text: string): { ms: number; dateOnly: boolean } {
  const m = ISO.exec(text.trim());
  if (!m) throw new Error(`reference: not an ISO date: ${JSON.stringify(text)}`);
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const ms = frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0;
  let at = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0), ms);
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    at -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
  }
  return { ms: at, dateOnly: h === undefined };
}

function rangeOf(date: Json | null | undefined): Range | null {
  if (!date || typeof date.start !== 'string') return null;
  const start = parseIso(date.start).ms;
  const end = typeof date.end === 'string' ? parseIso(date.end).ms : start;
  return { start, end };
}

const startOfDay = (ms: number) => Math.floor(ms / DAY) * DAY;

/** Steps a UTC midnight by calendar months, clamping the day (31 March − 1 month = 28/29 February). */
function addMonths(dayMs: number, months: number): number {
  const d = new Date(dayMs);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(d.getUTCDate(), lastDay));
}

const RELATIVE: Record<string, (today: number) => number> = {
  today: (t) => t,
  tomorrow: (t) => t + DAY,
  yesterday: (t) => t - DAY,
  one_week_ago: (t) => t - 7 * DAY,
  one_week_from_now: (t) => t + 7 * DAY,
  one_month_ago: (t) => addMonths(t, -1),
  one_month_from_now: (t) => addMonths(t, 1),
};

function operandOf(value: string, now: Date): Operand {
  const relative = RELATIVE[value];
  if (relative) {
    const from = relative(startOfDay(now.getTime()));
    return { from, to: from + DAY };
  }
  const parsed = parseIso(value);
  return parsed.dateOnly ? { from: parsed.ms, to: parsed.ms + DAY } : { instant: parsed.ms };
}

/** The windows: UTC days, today included; ISO weeks start on Monday. */
function windowOf(name: string, now: Date): [number, number] {
  const today = startOfDay(now.getTime());
  switch (name) {
    case 'past_week':
      return [today - 7 * DAY, today + DAY];
    case 'past_month':
      return [addMonths(today, -1), today + DAY];
    case 'past_year':
      return [addMonths(today, -12), today + DAY];
    case 'next_week':
      return [today, today + 8 * DAY];
    case 'next_month':
      return [today, addMonths(today, 1) + DAY];
    case 'next_year':
      return [today, addMonths(today, 12) + DAY];
    case 'this_week': {
      const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY;
      return [monday, monday + 7 * DAY];
    }
    default:
      throw new Error(`reference: unknown date condition ${name}`);
  }
}

function dateMatches(condition: Json, value: Range | null, now: Date): boolean {
  const [op, arg] = single(condition);
  if (op === 'is_empty') return value === null;
  if (op === 'is_not_empty') return value !== null;
  if (value === null) return false;
  const { start: s, end: e } = value;
  if (op in { past_week: 1, past_month: 1, past_year: 1, next_week: 1, next_month: 1, next_year: 1, this_week: 1 }) {
    const [w0, w1] = windowOf(op, now);
    return s < w1 && e >= w0;
  }
  const operand = operandOf(arg as string, now);
  if ('instant' in operand) {
    const t = operand.instant;
    switch (op) {
      case 'equals':
        return s <= t && t <= e;
      case 'before':
        return s < t;
      case 'after':
        return e > t;
      case 'on_or_before':
        return s <= t;
      case 'on_or_after':
        return e >= t;
    }
  } else {
    const { from: d0, to: d1 } = operand;
    switch (op) {
      case 'equals':
        return s < d1 && e >= d0;
      case 'before':
        return s < d0;
      case 'after':
        return e >= d1;
      case 'on_or_before':
        return s < d1;
      case 'on_or_after':
        return e >= d0;
    }
  }
  throw new Error(`reference: unknown date condition ${op}`);
}

// ---------------------------------------------------------------------------------------------
// Scalar conditions

/** The one operator of a condition object, and its operand. */
function single(condition: Json): [string, unknown] {
  const entries = Object.entries(condition);
  if (entries.length !== 1) throw new Error(`reference: a condition has one operator: ${JSON.stringify(condition)}`);
  return entries[0];
}

/** Case folding of the decisions: NFC, then JavaScript's toLowerCase, on both sides. */
const fold = (s: string) => s.normalize('NFC').toLowerCase();

function textMatches(condition: Json, value: string): boolean {
  const [op, arg] = single(condition);
  const v = fold(value);
  switch (op) {
    case 'is_empty':
      return v === '';
    case 'is_not_empty':
      return v !== '';
  }
  const a = fold(arg as string);
  switch (op) {
    case 'equals':
      return v === a;
    case 'does_not_equal':
      return v !== a;
    case 'contains':
      return v.includes(a);
    case 'does_not_contain':
      return !v.includes(a);
    case 'starts_with':
      return v.startsWith(a);
    case 'ends_with':
      return v.endsWith(a);
  }
  throw new Error(`reference: unknown text condition ${op}`);
}

function numberMatches(condition: Json, value: number | null): boolean {
  const [op, arg] = single(condition);
  const a = arg as number;
  switch (op) {
    case 'is_empty':
      return value === null;
    case 'is_not_empty':
      return value !== null;
    case 'does_not_equal':
      return value === null || value !== a;
  }
  if (value === null) return false;
  switch (op) {
    case 'equals':
      return value === a;
    case 'greater_than':
      return value > a;
    case 'greater_than_or_equal_to':
      return value >= a;
    case 'less_than':
      return value < a;
    case 'less_than_or_equal_to':
      return value <= a;
  }
  throw new Error(`reference: unknown number condition ${op}`);
}

function checkboxMatches(condition: Json, value: boolean | null): boolean {
  const [op, arg] = single(condition);
  if (op === 'equals') return value === arg;
  if (op === 'does_not_equal') return value !== arg;
  throw new Error(`reference: unknown checkbox condition ${op}`);
}

const asList = (arg: unknown): string[] => (Array.isArray(arg) ? (arg as string[]) : [arg as string]);

/** select: one option name or none, compared exactly; an array operand is "any of". */
function selectMatches(condition: Json, value: string | null): boolean {
  const [op, arg] = single(condition);
  switch (op) {
    case 'is_empty':
      return value === null;
    case 'is_not_empty':
      return value !== null;
    case 'equals':
      return value !== null && asList(arg).includes(value);
    case 'does_not_equal':
      return value === null || !asList(arg).includes(value);
  }
  throw new Error(`reference: unknown select condition ${op}`);
}

/**
 * status: as select, except that `equals` also takes a group's name for every option of the
 * group, unless an option has that name.
 */
function statusMatches(condition: Json, value: string | null, config: Json): boolean {
  const [op, arg] = single(condition);
  if (op !== 'equals') return selectMatches(condition, value);
  if (value === null) return false;
  const options = (config.options as Json[]).map((o) => o as { id: string; name: string });
  const groups = (config.groups as Json[]).map((g) => g as { name: string; option_ids: string[] });
  return asList(arg).some((name) => {
    if (options.some((o) => o.name === name)) return value === name;
    const group = groups.find((g) => g.name === name);
    return group !== undefined && group.option_ids.some((id) => options.find((o) => o.id === id)?.name === value);
  });
}

function multiSelectMatches(condition: Json, value: string[]): boolean {
  const [op, arg] = single(condition);
  switch (op) {
    case 'is_empty':
      return value.length === 0;
    case 'is_not_empty':
      return value.length > 0;
    case 'contains':
      return asList(arg).some((name) => value.includes(name));
    case 'does_not_contain':
      return !asList(arg).some((name) => value.includes(name));
  }
  throw new Error(`reference: unknown multi_select condition ${op}`);
}

/** people, created_by, last_edited_by: user ids; `me` is the connection's user, and nobody for an internal connection. */
function peopleMatches(condition: Json, value: string[], me: string | null): boolean {
  const [op, arg] = single(condition);
  switch (op) {
    case 'is_empty':
      return value.length === 0;
    case 'is_not_empty':
      return value.length > 0;
  }
  const id = arg === 'me' ? me : (arg as string);
  const holds = id !== null && value.includes(id);
  if (op === 'contains') return holds;
  if (op === 'does_not_contain') return !holds;
  throw new Error(`reference: unknown people condition ${op}`);
}

function relationMatches(condition: Json, value: string[]): boolean {
  const [op, arg] = single(condition);
  switch (op) {
    case 'is_empty':
      return value.length === 0;
    case 'is_not_empty':
      return value.length > 0;
    case 'contains':
      return value.includes(arg as string);
    case 'does_not_contain':
      return !value.includes(arg as string);
  }
  throw new Error(`reference: unknown relation condition ${op}`);
}

function existenceMatches(condition: Json, count: number): boolean {
  const [op] = single(condition);
  if (op === 'is_empty') return count === 0;
  if (op === 'is_not_empty') return count > 0;
  throw new Error(`reference: unknown files condition ${op}`);
}

/** verified: no end or an end not before now; expired: an end before now; none: unverified. */
function verificationState(value: Json | null | undefined, now: Date): 'verified' | 'expired' | 'none' {
  if (!value || value.state !== 'verified') return 'none';
  const end = value.date?.end;
  return typeof end === 'string' && parseIso(end).ms < now.getTime() ? 'expired' : 'verified';
}

function verificationMatches(condition: Json, value: Json | null | undefined, now: Date): boolean {
  const [op, arg] = single(condition);
  const state = verificationState(value, now);
  if (op === 'status') return state === arg;
  if (op === 'does_not_equal') return state !== arg;
  throw new Error(`reference: unknown verification condition ${op}`);
}

// ---------------------------------------------------------------------------------------------
// Property values

function schemaOf(page: PageObject, world: World): DataSourceObject {
  const id = page.parent.data_source_id;
  const schema = id === undefined ? undefined : world.dataSources.get(id);
  if (!schema) throw new Error(`reference: no schema for page ${page.id}`);
  return schema;
}

/** A property of a schema by name or, failing that (or when asked), by id. */
function propertyOf(schema: DataSourceObject, ref: string, byIdOnly = false): { name: string; property: Json } {
  if (!byIdOnly && Object.hasOwn(schema.properties, ref)) return { name: ref, property: schema.properties[ref] };
  for (const [name, property] of Object.entries(schema.properties)) if (property.id === ref) return { name, property };
  throw new Error(`reference: no property ${JSON.stringify(ref)} in data source ${schema.id}`);
}

/** Related page ids, without pages in the trash (a related page in the trash is not in the relation). */
function relatedIds(value: Json | undefined, world: World): string[] {
  const refs = (value?.relation ?? []) as Array<{ id: string }>;
  return refs.map((r) => r.id).filter((id) => world.pages.get(id)?.in_trash !== true);
}

const plainText = (items: Array<{ plain_text: string }> | undefined) => (items ?? []).map((i) => i.plain_text).join('');

/** A condition of the property's own type over its value on the page (rollup elements are read this way too). */
function propertyMatches(type: string, property: Json, condition: Json, name: string, page: PageObject, world: World): boolean {
  const value = page.properties[name];
  if (TEXT_TYPES.has(type)) {
    const v = value?.[type];
    return textMatches(condition, typeof v === 'string' ? v : Array.isArray(v) ? plainText(v) : '');
  }
  switch (type) {
    case 'number':
      return numberMatches(condition, (value?.number as number | null | undefined) ?? null);
    case 'unique_id':
      return numberMatches(condition, (value?.unique_id?.number as number | null | undefined) ?? null);
    case 'checkbox':
      return checkboxMatches(condition, value?.checkbox === true);
    case 'select':
      return selectMatches(condition, (value?.select?.name as string | undefined) ?? null);
    case 'status':
      return statusMatches(condition, (value?.status?.name as string | undefined) ?? null, property.status);
    case 'multi_select':
      return multiSelectMatches(
        condition,
        ((value?.multi_select ?? []) as Array<{ name: string }>).map((o) => o.name),
      );
    case 'date':
      return dateMatches(condition, rangeOf(value?.date), world.now);
    // The page's own times and authors, not a stored copy.
    case 'created_time':
    case 'last_edited_time':
      return dateMatches(condition, rangeOf({ start: page[type] }), world.now);
    case 'created_by':
    case 'last_edited_by':
      return peopleMatches(condition, [page[type].id], world.me);
    case 'people':
      return peopleMatches(
        condition,
        ((value?.people ?? []) as Array<{ id: string }>).map((u) => u.id),
        world.me,
      );
    case 'files':
      return existenceMatches(condition, ((value?.files ?? []) as unknown[]).length);
    case 'relation':
      return relationMatches(condition, relatedIds(value, world));
    case 'verification':
      return verificationMatches(condition, value?.verification, world.now);
  }
  throw new Error(`reference: no conditions for property type ${type}`);
}

/** formula: the condition of the formula's result type over its value (an empty string is ""). */
function formulaMatches(condition: Json, value: Json | undefined, now: Date): boolean {
  const [kind, inner] = single(condition);
  const result = value?.formula as Json | undefined;
  // A formula's value names a true/false result `boolean`; the condition's key is `checkbox`.
  const resultType = kind === 'checkbox' ? 'boolean' : kind;
  const v = result && result.type === resultType ? result[resultType] : null;
  switch (kind) {
    case 'string':
      return textMatches(inner as Json, typeof v === 'string' ? v : '');
    case 'number':
      return numberMatches(inner as Json, typeof v === 'number' ? v : null);
    case 'checkbox':
      return checkboxMatches(inner as Json, typeof v === 'boolean' ? v : null);
    case 'date':
      return dateMatches(inner as Json, rangeOf(v as Json | null), now);
  }
  throw new Error(`reference: unknown formula condition ${kind}`);
}

/**
 * rollup: `number`/`date` read the rollup's result; `any`/`every`/`none` read the rolled-up
 * property on each related page not in the trash (every over none is true, any false).
 */
function rollupMatches(condition: Json, property: Json, name: string, page: PageObject, world: World): boolean {
  const [kind, inner] = single(condition);
  const result = page.properties[name]?.rollup as Json | undefined;
  if (kind === 'number') return numberMatches(inner as Json, result?.type === 'number' ? ((result.number as number | null) ?? null) : null);
  if (kind === 'date') return dateMatches(inner as Json, result?.type === 'date' ? rangeOf(result.date as Json | null) : null, world.now);
  const config = property.rollup as Json;
  const relation = propertyOf(schemaOf(page, world), config.relation_property_id as string, true);
  const elements = relatedIds(page.properties[relation.name], world).map((id) => {
    const related = world.pages.get(id);
    if (!related) throw new Error(`reference: related page ${id} is not in the world`);
    return related;
  });
  const [subKey, subCondition] = single(inner as Json);
  const holds = (related: PageObject) => {
    const target = propertyOf(schemaOf(related, world), config.rollup_property_id as string, true);
    const type = target.property.type as string;
    // The sub-condition's key fits the rolled-up property (any text key fits any text property).
    const fits = subKey === type || (subKey === 'rich_text' && TEXT_TYPES.has(type));
    if (!fits) throw new Error(`reference: ${subKey} does not fit a rolled-up ${type}`);
    return propertyMatches(type, target.property, subCondition as Json, target.name, related, world);
  };
  switch (kind) {
    case 'any':
      return elements.some(holds);
    case 'every':
      return elements.every(holds);
    case 'none':
      return !elements.some(holds);
  }
  throw new Error(`reference: unknown rollup condition ${kind}`);
}

const NOT_TYPE_KEYS = new Set(['property', 'type', 'timestamp']);

function leafMatches(filter: Json, page: PageObject, world: World): boolean {
  const keys = Object.keys(filter).filter((k) => !NOT_TYPE_KEYS.has(k));
  if (keys.length !== 1) throw new Error(`reference: a filter has one type key: ${JSON.stringify(filter)}`);
  const key = keys[0];
  const condition = filter[key] as Json;
  if (typeof filter.timestamp === 'string') {
    return dateMatches(condition, rangeOf({ start: page[filter.timestamp as 'created_time' | 'last_edited_time'] }), world.now);
  }
  const { name, property } = propertyOf(schemaOf(page, world), filter.property as string);
  const type = property.type as string;
  if (type === 'formula') return formulaMatches(condition, page.properties[name], world.now);
  if (type === 'rollup') return rollupMatches(condition, property, name, page, world);
  return propertyMatches(type, property, condition, name, page, world);
}

/** Whether the page matches the filter: `and` every item, `or` any item, a leaf its one condition. */
export function matches(filter: QueryFilter, page: PageObject, world: World): boolean {
  const f = filter as Json;
  if (Array.isArray(f.and)) return (f.and as QueryFilter[]).every((item) => matches(item, page, world));
  if (Array.isArray(f.or)) return (f.or as QueryFilter[]).some((item) => matches(item, page, world));
  return leafMatches(f, page, world);
}
