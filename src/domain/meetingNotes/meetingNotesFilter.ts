import { invalidField, missingField, type FieldPath } from '../../errors/validationFailure.js';
import { normalizeId } from '../../ids/ids.js';
import { PROPERTY_TYPE_DEFINITIONS } from '../properties/registry.js';
import { isTimeZone, utcIso } from '../properties/dates.js';
import type { Property } from '../properties/schemaTypes.js';
import { isRecord as isObject } from '../rollups/rollupAtoms.js';
import { DATE_WINDOWS, parseDateOperand, RELATIVE_DATES, type DateOperand, type DateWindow } from '../query/dateOperands.js';
import type { ParsedCondition } from '../query/conditions/operators.js';
import type { FilterTree } from '../query/parseFilter.js';
import { MEETING_NOTES_SCHEMA } from './meetingNoteValues.js';

/**
 * The meeting-notes query's filter (SDK `QueryMeetingNotesParameters.filter`, FACTS.md §10.7)
 * checked and translated into the query planner's filter tree: each property filter becomes the
 * condition a page's property of the same type takes (title → text, timestamps → date on the row,
 * authors and attendees → people), so the planner's compiler writes the SQL. Every error names
 * its field.
 */

type Kind = 'text' | 'date' | 'person';

const KIND_OF: Record<string, Kind> = {
  title: 'text',
  created_time: 'date',
  last_edited_time: 'date',
  created_by: 'person',
  last_edited_by: 'person',
  attendees: 'person',
};

const TEXT_OPS: Record<string, string> = {
  string_is: 'equals',
  string_is_not: 'does_not_equal',
  string_contains: 'contains',
  string_does_not_contain: 'does_not_contain',
  string_starts_with: 'starts_with',
  string_ends_with: 'ends_with',
};
const DATE_POINT_OPS: Record<string, string> = {
  date_is: 'equals',
  date_is_before: 'before',
  date_is_after: 'after',
  date_is_on_or_before: 'on_or_before',
  date_is_on_or_after: 'on_or_after',
};
const DATE_RANGE_OPS = ['date_is_within', 'date_is_relative_to'];
const PERSON_OPS: Record<string, string> = { person_contains: 'contains', person_does_not_contain: 'does_not_contain' };
const EMPTY_OPS = ['is_empty', 'is_not_empty'];

const OPERATORS: Record<Kind, string[]> = {
  text: [...Object.keys(TEXT_OPS), ...EMPTY_OPS],
  date: [...Object.keys(DATE_POINT_OPS), ...DATE_RANGE_OPS, ...EMPTY_OPS],
  person: [...Object.keys(PERSON_OPS), ...EMPTY_OPS],
};

/** Filters in one combinator: as a data source query allows. */
const MAX_ITEMS = 100;
const DAY_MS = 86_400_000;

const leaf = (property: Property, condition: ParsedCondition): FilterTree => {
  const definition = PROPERTY_TYPE_DEFINITIONS[property.type];
  return { kind: 'leaf', property, row: definition.page.fromRow, family: definition.filters, condition };
};

function expectKeys(raw: Record<string, unknown>, allowed: readonly string[], path: FieldPath): void {
  for (const key of Object.keys(raw)) if (!allowed.includes(key)) throw invalidField([...path, key], 'should be not present', raw[key]);
}

/** `{type: "exact", value: <string>}`: the string. */
function exactString(value: unknown, path: FieldPath): string {
  if (!isObject(value)) throw invalidField(path, 'should be an object: {"type": "exact", "value": "…"}', value);
  expectKeys(value, ['type', 'value'], path);
  if (value.type !== 'exact') throw invalidField([...path, 'type'], 'should be exact', value.type);
  if (typeof value.value !== 'string') throw invalidField([...path, 'value'], 'should be a string', value.value);
  return value.value;
}

/** A user named `{type: "exact", value: {table: "notion_user", id}}`, one or a list of them. */
function people(value: unknown, path: FieldPath): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || list.length > MAX_ITEMS) throw invalidField(path, `should name 1 to ${MAX_ITEMS} users`, value);
  return list.map((item, i) => {
    const at = Array.isArray(value) ? [...path, i] : path;
    if (!isObject(item)) throw invalidField(at, 'should be an object: {"type": "exact", "value": {"table": "notion_user", "id": "…"}}', item);
    expectKeys(item, ['type', 'value'], at);
    if (item.type !== 'exact') throw invalidField([...at, 'type'], 'should be exact', item.type);
    const user = item.value;
    if (!isObject(user)) throw invalidField([...at, 'value'], 'should be an object: {"table": "notion_user", "id": "…"}', user);
    expectKeys(user, ['table', 'id'], [...at, 'value']);
    if (user.table !== 'notion_user') throw invalidField([...at, 'value', 'table'], 'should be notion_user', user.table);
    const id = typeof user.id === 'string' ? normalizeId(user.id) : null;
    if (!id) throw invalidField([...at, 'value', 'id'], 'should be a valid uuid', user.id);
    return id;
  });
}

const RELATIVE_WORDS = `one of ${RELATIVE_DATES.join(', ')}`;

/** A point in time: a relative day, an exact date (a UTC day) or date-time (an instant, read in its time zone). */
function datePoint(value: unknown, now: Date, path: FieldPath): DateOperand {
  if (!isObject(value)) throw invalidField(path, 'should be an object: {"type": "exact" | "relative", "value": …}', value);
  expectKeys(value, ['type', 'value'], path);
  const inner = value.value;
  if (value.type === 'relative') {
    const operand = typeof inner === 'string' && (RELATIVE_DATES as readonly string[]).includes(inner) ? parseDateOperand(inner, now) : null;
    if (!operand) throw invalidField([...path, 'value'], `should be ${RELATIVE_WORDS}`, inner);
    return operand;
  }
  if (value.type !== 'exact') throw invalidField([...path, 'type'], 'should be one of exact, relative', value.type);
  if (typeof inner === 'string') {
    const operand = parseDateOperand(inner, now);
    if (!operand || (RELATIVE_DATES as readonly string[]).includes(inner))
      throw invalidField([...path, 'value'], 'should be an ISO 8601 date or date-time', inner);
    return operand;
  }
  if (!isObject(inner)) throw invalidField([...path, 'value'], 'should be an object: {"type": "date" | "datetime", "start_date": …}', inner);
  const at = [...path, 'value'];
  expectKeys(inner, ['type', 'start_date', 'start_time', 'time_zone'], at);
  if (inner.type !== 'date' && inner.type !== 'datetime') throw invalidField([...at, 'type'], 'should be one of date, datetime', inner.type);
  const day = typeof inner.start_date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(inner.start_date) ? parseDateOperand(inner.start_date, now) : null;
  if (!day) throw invalidField([...at, 'start_date'], 'should be a date (YYYY-MM-DD)', inner.start_date);
  if (inner.type === 'date') return day;
  if (typeof inner.start_time !== 'string' || !/^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(inner.start_time))
    throw invalidField([...at, 'start_time'], 'should be a time (HH:MM or HH:MM:SS) for a datetime', inner.start_time);
  const zone = inner.time_zone ?? null;
  if (zone !== null && (typeof zone !== 'string' || !isTimeZone(zone))) throw invalidField([...at, 'time_zone'], 'should be an IANA time zone', zone);
  const instant = utcIso(`${inner.start_date}T${inner.start_time}`, zone ?? 'UTC');
  if (!instant) throw invalidField([...at, 'start_time'], 'should be a time of that day', inner.start_time);
  return { kind: 'instant', at: instant };
}

/** `count` units from `ms`, backwards for a negative count (months and years by the calendar, clamped). */
function shift(ms: number, unit: string, count: number): number {
  if (unit === 'day') return ms + count * DAY_MS;
  if (unit === 'week') return ms + count * 7 * DAY_MS;
  const d = new Date(ms);
  const months = unit === 'month' ? count : count * 12;
  const first = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1);
  const last = new Date(Date.UTC(new Date(first).getUTCFullYear(), new Date(first).getUTCMonth() + 1, 0)).getUTCDate();
  return Date.UTC(new Date(first).getUTCFullYear(), new Date(first).getUTCMonth(), Math.min(d.getUTCDate(), last)) + (ms % DAY_MS);
}

/**
 * A range [from, to), or one of the planner's windows (`past_week` …): an exact `daterange` of
 * whole UTC days (no end: open), or, relative, `count` `unit`s from a relative day in `direction`
 * (docs/decisions.md, "The meeting-notes query").
 */
function dateRange(value: unknown, now: Date, path: FieldPath): { from: string | null; to: string | null } | DateWindow {
  if (!isObject(value)) throw invalidField(path, 'should be an object: {"type": "exact" | "relative", "value": …}', value);
  expectKeys(value, ['type', 'value', 'direction', 'unit', 'count'], path);
  const inner = value.value;
  if (value.type === 'exact') {
    if (!isObject(inner)) throw invalidField([...path, 'value'], 'should be an object: {"type": "daterange", "start_date": …, "end_date"?: …}', inner);
    const at = [...path, 'value'];
    expectKeys(inner, ['type', 'start_date', 'end_date'], at);
    if (inner.type !== 'daterange') throw invalidField([...at, 'type'], 'should be daterange', inner.type);
    const dayOf = (key: 'start_date' | 'end_date') => {
      const text = inner[key];
      const day = typeof text === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(text) ? parseDateOperand(text, now) : null;
      if (!day || day.kind !== 'day') throw invalidField([...at, key], 'should be a date (YYYY-MM-DD)', text);
      return day;
    };
    const start = dayOf('start_date');
    const end = inner.end_date === undefined || inner.end_date === null ? null : dayOf('end_date');
    if (end && end.to <= start.from) throw invalidField([...at, 'end_date'], 'should be on or after start_date', inner.end_date);
    return { from: start.from, to: end?.to ?? null };
  }
  if (value.type !== 'relative') throw invalidField([...path, 'type'], 'should be one of exact, relative', value.type);
  if (typeof inner === 'string' && (DATE_WINDOWS as readonly string[]).includes(inner) && value.count === undefined) return inner as DateWindow;
  const anchor = typeof inner === 'string' && (RELATIVE_DATES as readonly string[]).includes(inner) ? parseDateOperand(inner, now) : null;
  if (!anchor || anchor.kind !== 'day') throw invalidField([...path, 'value'], `should be ${RELATIVE_WORDS}, or one of ${DATE_WINDOWS.join(', ')}`, inner);
  const direction = value.direction ?? 'past';
  if (direction !== 'past' && direction !== 'future') throw invalidField([...path, 'direction'], 'should be one of past, future', direction);
  const unit = value.unit ?? 'day';
  if (unit !== 'day' && unit !== 'week' && unit !== 'month' && unit !== 'year')
    throw invalidField([...path, 'unit'], 'should be one of day, week, month, year', unit);
  const count = value.count ?? 1;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > 10_000)
    throw invalidField([...path, 'count'], 'should be a whole number from 0 to 10000', count);
  const from = Date.parse(anchor.from);
  const to = Date.parse(anchor.to);
  return direction === 'past'
    ? { from: new Date(shift(from, unit, -count)).toISOString(), to: anchor.to }
    : { from: anchor.from, to: new Date(shift(to, unit, count)).toISOString() };
}

function parsePropertyFilter(raw: Record<string, unknown>, path: FieldPath, now: Date): FilterTree {
  expectKeys(raw, ['property', 'filter'], path);
  if (!('property' in raw)) throw missingField([...path, 'property']);
  const name = raw.property;
  const kind = typeof name === 'string' && Object.hasOwn(KIND_OF, name) ? KIND_OF[name] : null;
  if (!kind) throw invalidField([...path, 'property'], `should be one of ${Object.keys(KIND_OF).join(', ')}`, name);
  const property = MEETING_NOTES_SCHEMA[name as string];
  if (!('filter' in raw)) throw missingField([...path, 'filter']);
  const filter = raw.filter;
  const at = [...path, 'filter'];
  if (!isObject(filter)) throw invalidField(at, 'should be an object: {"operator": …, "value"?: …}', filter);
  expectKeys(filter, ['operator', 'value'], at);
  const operator = filter.operator;
  if (typeof operator !== 'string' || !OPERATORS[kind].includes(operator))
    throw invalidField([...at, 'operator'], `should be one of ${OPERATORS[kind].join(', ')} for ${name as string}`, operator);
  const valuePath = [...at, 'value'];
  if (EMPTY_OPS.includes(operator)) {
    if (filter.value !== undefined) throw invalidField(valuePath, `should be not present for ${operator}`, filter.value);
    return leaf(property, { op: operator, value: true });
  }
  if (filter.value === undefined) throw missingField(valuePath);
  switch (kind) {
    case 'text':
      return leaf(property, { op: TEXT_OPS[operator], value: exactString(filter.value, valuePath) });
    case 'person': {
      const op = PERSON_OPS[operator];
      const items = people(filter.value, valuePath).map((id) => leaf(property, { op, value: id }));
      // Contains any of them; does not contain any of them.
      return items.length === 1 ? items[0] : { kind: op === 'contains' ? 'or' : 'and', items };
    }
    case 'date': {
      if (operator in DATE_POINT_OPS) return leaf(property, { op: DATE_POINT_OPS[operator], value: datePoint(filter.value, now, valuePath) });
      const range = dateRange(filter.value, now, valuePath);
      if (typeof range === 'string') return leaf(property, { op: range, value: {} });
      const bounds: FilterTree[] = [];
      if (range.from) bounds.push(leaf(property, { op: 'on_or_after', value: { kind: 'instant', at: range.from } }));
      if (range.to) bounds.push(leaf(property, { op: 'before', value: { kind: 'instant', at: range.to } }));
      return { kind: 'and', items: bounds };
    }
  }
}

function parseNode(raw: unknown, path: FieldPath, now: Date, depth: number): FilterTree {
  if (!isObject(raw)) throw invalidField(path, 'should be an object', raw);
  if (!('operator' in raw) || 'property' in raw) return parsePropertyFilter(raw, path, now);
  expectKeys(raw, ['operator', 'filters'], path);
  if (raw.operator !== 'and' && raw.operator !== 'or') throw invalidField([...path, 'operator'], 'should be one of and, or', raw.operator);
  // The root and one nested level: a nested combinator's filters are property filters only.
  if (depth > 1) throw invalidField(path, 'should be a property filter: combinators nest one level below the root', raw);
  const items = raw.filters ?? [];
  if (!Array.isArray(items)) throw invalidField([...path, 'filters'], 'should be an array', items);
  if (items.length > MAX_ITEMS) throw invalidField([...path, 'filters'], `should have at most ${MAX_ITEMS} filters`, `${items.length} filters`);
  return { kind: raw.operator, items: items.map((item, i) => parseNode(item, [...path, 'filters', i], now, depth + 1)) };
}

/** Checks a meeting-notes query's `filter` and returns it as the planner's filter tree. */
export function parseMeetingNotesFilter(raw: unknown, now: Date): FilterTree {
  return parseNode(raw, ['filter'], now, 0);
}
