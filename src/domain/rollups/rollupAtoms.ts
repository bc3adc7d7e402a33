import { parseInstant } from '../formulas/dateMath.js';
import { isRecord } from '../isRecord.js';
export { isRecord };

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

export function isRollupInput(v: unknown): v is RollupInput {
  return isRecord(v) && typeof v.type === 'string';
}

export function str(v: unknown): string | null {
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

export function text(label: string, key = `text:${label}`): Atom[] {
  return label === '' ? [] : [{ kind: 'other', key, label }];
}

export function numberAtom(v: unknown): Atom[] {
  return typeof v === 'number' && Number.isFinite(v) ? [{ kind: 'number', key: `number:${v}`, label: String(v), value: v }] : [];
}

export function booleanAtom(v: unknown): Atom[] {
  return typeof v === 'boolean' ? [{ kind: 'boolean', key: `boolean:${v}`, label: String(v), value: v }] : [];
}

export function dateAtom(start: unknown, end: unknown, timeZone: unknown): Atom[] {
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

export function optionAtom(v: unknown): Atom[] {
  if (!isRecord(v)) return [];
  const name = str(v.name) ?? str(v.id) ?? '';
  return text(name, `option:${name}`);
}

export function userAtom(v: unknown): Atom[] {
  if (!isRecord(v) || typeof v.id !== 'string') return [];
  return [{ kind: 'other', key: `user:${v.id}`, label: str(v.name) ?? v.id }];
}

export function fileAtom(v: unknown): Atom[] {
  if (!isRecord(v)) return [];
  const name = str(v.name) ?? '';
  const url = isRecord(v.file) ? str(v.file.url) : isRecord(v.external) ? str(v.external.url) : null;
  return text(name || (url ?? ''), `file:${name}:${url ?? ''}`);
}

export function each(list: unknown, one: (v: unknown) => Atom[]): Atom[] {
  return Array.isArray(list) ? list.flatMap(one) : [];
}
