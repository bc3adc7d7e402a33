import { parseInstant } from '../formulas/dateMath.js';

/** One property value of one related page, in Notion API property-value form. */
export type RollupInput = { type: string; [key: string]: unknown };

/**
 * The smallest countable piece of a property value: one number, one select
 * option, one person, one related page, one text... Multi-valued properties
 * (multi_select, people, relation, files) yield one atom per element, and an
 * empty value yields none, which is how emptiness is defined for rollups.
 */
export type Atom =
  | { kind: 'number'; key: string; label: string; value: number }
  | { kind: 'boolean'; key: string; label: string; value: boolean }
  | { kind: 'date'; key: string; label: string; start: string; startMs: number; end: string; endMs: number }
  | { kind: 'other'; key: string; label: string };

/** Property types whose value is a list of independent elements. */
export const MULTI_VALUED_TYPES: ReadonlySet<string> = new Set(['multi_select', 'people', 'relation', 'files']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isRollupInput(v: unknown): v is RollupInput {
  return isRecord(v) && typeof v.type === 'string';
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

export function plainText(richText: unknown): string {
  if (!Array.isArray(richText)) return '';
  return richText
    .map((item) => {
      if (!isRecord(item)) return '';
      const plain = str(item.plain_text);
      if (plain !== null) return plain;
      return isRecord(item.text) ? (str(item.text.content) ?? '') : '';
    })
    .join('');
}

/** Stable JSON (sorted keys) so equal values produce equal keys. */
export function stableKey(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableKey).join(',')}]`;
  if (isRecord(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableKey(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

function text(label: string, key = `text:${label}`): Atom[] {
  return label === '' ? [] : [{ kind: 'other', key, label }];
}

function numberAtom(v: unknown): Atom[] {
  return typeof v === 'number' && Number.isFinite(v) ? [{ kind: 'number', key: `number:${v}`, label: String(v), value: v }] : [];
}

function booleanAtom(v: unknown): Atom[] {
  return typeof v === 'boolean' ? [{ kind: 'boolean', key: `boolean:${v}`, label: String(v), value: v }] : [];
}

function dateAtom(start: unknown, end: unknown, timeZone: unknown): Atom[] {
  if (typeof start !== 'string') return [];
  const tz = typeof timeZone === 'string' ? timeZone : null;
  const s = parseInstant(start, tz);
  if (s === null) return [];
  const endText = typeof end === 'string' ? end : null;
  const e = endText === null ? null : parseInstant(endText, tz);
  return [
    {
      kind: 'date',
      key: `date:${s.ms}:${e?.ms ?? ''}`,
      label: start,
      start,
      startMs: s.ms,
      end: e === null || endText === null ? start : endText,
      endMs: e?.ms ?? s.ms,
    },
  ];
}

function optionAtom(v: unknown): Atom[] {
  if (!isRecord(v)) return [];
  const name = str(v.name) ?? str(v.id) ?? '';
  return text(name, `option:${name}`);
}

function userAtom(v: unknown): Atom[] {
  if (!isRecord(v) || typeof v.id !== 'string') return [];
  return [{ kind: 'other', key: `user:${v.id}`, label: str(v.name) ?? v.id }];
}

function fileAtom(v: unknown): Atom[] {
  if (!isRecord(v)) return [];
  const name = str(v.name) ?? '';
  const url = isRecord(v.file) ? str(v.file.url) : isRecord(v.external) ? str(v.external.url) : null;
  return text(name || (url ?? ''), `file:${name}:${url ?? ''}`);
}

function each(list: unknown, one: (v: unknown) => Atom[]): Atom[] {
  return Array.isArray(list) ? list.flatMap(one) : [];
}

export function atomsOf(input: RollupInput, depth = 0): Atom[] {
  const payload = input[input.type];
  switch (input.type) {
    case 'title':
    case 'rich_text':
      return text(plainText(payload));
    case 'number':
      return numberAtom(payload);
    case 'checkbox':
      return booleanAtom(payload);
    case 'select':
    case 'status':
      return optionAtom(payload);
    case 'multi_select':
      return each(payload, optionAtom);
    case 'people':
      return each(payload, userAtom);
    case 'created_by':
    case 'last_edited_by':
      return userAtom(payload);
    case 'relation':
      return each(payload, (v) => (isRecord(v) && typeof v.id === 'string' ? [{ kind: 'other', key: `page:${v.id}`, label: v.id }] : []));
    case 'files':
      return each(payload, fileAtom);
    case 'date':
      return isRecord(payload) ? dateAtom(payload.start, payload.end, payload.time_zone) : [];
    case 'created_time':
    case 'last_edited_time':
      return dateAtom(payload, null, null);
    case 'url':
    case 'email':
    case 'phone_number':
      return text(str(payload) ?? '');
    case 'unique_id':
      if (!isRecord(payload) || typeof payload.number !== 'number') return [];
      return text(typeof payload.prefix === 'string' && payload.prefix !== '' ? `${payload.prefix}-${payload.number}` : String(payload.number));
    case 'formula':
      return isRecord(payload) ? formulaAtoms(payload) : [];
    case 'rollup':
      return isRecord(payload) && depth < 5 ? rollupAtoms(payload, depth) : [];
    default:
      return payload === null || payload === undefined || payload === '' || (Array.isArray(payload) && payload.length === 0)
        ? []
        : [{ kind: 'other', key: `${input.type}:${stableKey(payload)}`, label: typeof payload === 'string' ? payload : stableKey(payload) }];
  }
}

function formulaAtoms(f: Record<string, unknown>): Atom[] {
  switch (f.type) {
    case 'string':
      return text(str(f.string) ?? '');
    case 'number':
      return numberAtom(f.number);
    case 'boolean':
      return booleanAtom(f.boolean);
    case 'date':
      return isRecord(f.date) ? dateAtom(f.date.start, f.date.end, f.date.time_zone) : [];
    default:
      return [];
  }
}

function rollupAtoms(r: Record<string, unknown>, depth: number): Atom[] {
  switch (r.type) {
    case 'number':
      return numberAtom(r.number);
    case 'date':
      return isRecord(r.date) ? dateAtom(r.date.start, r.date.end, r.date.time_zone) : [];
    case 'array':
      return Array.isArray(r.array) ? r.array.flatMap((item) => (isRollupInput(item) ? atomsOf(item, depth + 1) : [])) : [];
    default:
      return [];
  }
}
