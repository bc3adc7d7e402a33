import { plainText, type RichTextItem } from '../richText.js';
import { utcIso, type DateValue } from './dates.js';
import type { StoredValue } from './normalizeValue.js';

/** The typed columns of a property_values row and the rows of property_value_items, for SQL filters. */
export interface ValueColumns {
  text_value: string | null;
  number_value: number | null;
  date_start: string | null;
  date_end: string | null;
  bool_value: number | null;
  items: string[];
}

const none = (): ValueColumns => ({ text_value: null, number_value: null, date_start: null, date_end: null, bool_value: null, items: [] });

function dateColumns(columns: ValueColumns, date: DateValue | null | undefined): ValueColumns {
  if (!date) return columns;
  columns.date_start = utcIso(date.start, date.time_zone ?? null);
  columns.date_end = date.end ? utcIso(date.end, date.time_zone ?? null) : null;
  return columns;
}

const textOrNull = (s: string | null | undefined) => (s === undefined || s === null || s === '' ? null : s);

/**
 * Columns per type: text-like values and option names in text_value (null when empty), numbers in
 * number_value, dates as UTC instants, checkboxes as 0/1; multi_select names, people ids,
 * relation page ids and file names one item each. Formula and rollup results land in the column
 * of their result type.
 */
export function valueColumns(value: StoredValue): ValueColumns {
  const columns = none();
  const member = value[value.type];
  switch (value.type) {
    case 'title':
    case 'rich_text':
      columns.text_value = textOrNull(plainText(member as RichTextItem[]));
      return columns;
    case 'url':
    case 'email':
    case 'phone_number':
      columns.text_value = textOrNull(member as string | null);
      return columns;
    case 'number':
      columns.number_value = typeof member === 'number' ? member : null;
      return columns;
    case 'checkbox':
      columns.bool_value = member === true ? 1 : 0;
      return columns;
    case 'select':
    case 'status':
      columns.text_value = (member as { name: string } | null)?.name ?? null;
      return columns;
    case 'multi_select':
      columns.items = (member as { name: string }[]).map((o) => o.name);
      return columns;
    case 'people':
    case 'relation':
      columns.items = (member as { id: string }[]).map((o) => o.id);
      return columns;
    case 'files':
      columns.items = (member as { name: string }[]).map((f) => f.name);
      return columns;
    case 'date':
      return dateColumns(columns, member as DateValue | null);
    case 'created_time':
    case 'last_edited_time':
      columns.date_start = (member as string | null) ?? null;
      return columns;
    case 'created_by':
    case 'last_edited_by':
      columns.text_value = (member as { id: string } | null)?.id ?? null;
      return columns;
    case 'unique_id': {
      const id = (member as { prefix: string | null; number: number | null } | null) ?? { prefix: null, number: null };
      columns.number_value = id.number;
      columns.text_value = id.number === null ? null : id.prefix ? `${id.prefix}-${id.number}` : String(id.number);
      return columns;
    }
    case 'verification':
      columns.text_value = (member as { state: string } | null)?.state ?? null;
      return columns;
    case 'formula': {
      const result = member as { type: string; [k: string]: unknown };
      if (result.type === 'string') columns.text_value = textOrNull(result.string as string | null);
      if (result.type === 'number') columns.number_value = (result.number as number | null) ?? null;
      if (result.type === 'boolean') columns.bool_value = result.boolean === null ? null : result.boolean ? 1 : 0;
      if (result.type === 'date') dateColumns(columns, result.date as DateValue | null);
      return columns;
    }
    case 'rollup': {
      const result = member as { type: string; [k: string]: unknown };
      if (result.type === 'number') columns.number_value = (result.number as number | null) ?? null;
      if (result.type === 'date') dateColumns(columns, result.date as DateValue | null);
      return columns;
    }
    default:
      return columns;
  }
}
