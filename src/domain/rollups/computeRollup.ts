import { definitionOf } from '../properties/registry.js';
import { atomsOf } from './atomsOf.js';
import { stableKey, type Atom, type RollupInput } from './rollupAtoms.js';
import type { RollupFunction } from '../../schemas/rollupFunctions.js';

export type RollupDate = { start: string; end: string | null; time_zone: null };

export type RollupResult =
  | { type: 'number'; number: number | null; function: RollupFunction }
  | { type: 'date'; date: RollupDate | null; function: RollupFunction }
  | { type: 'array'; array: RollupInput[]; function: RollupFunction };

/**
 * Computes a rollup over the rolled-up property's value on each related page
 * (one input per page, in Notion API property-value form).
 *
 * Emptiness: null, "", [], empty rich text and missing values are empty;
 * checkbox false and number 0 are not.
 *
 * count_per_group / percent_per_group return one array element per distinct
 * value, in order of first appearance, with pages whose value is empty last:
 *   { type: 'number', number: <count | fraction of pages>, group: <value label | null> }
 * where the label is the option/person name, the text, the number or date as
 * written, or "true"/"false" for checkboxes. A page with several values
 * (multi_select, people, relation) counts in each of its groups.
 */
export function computeRollup(fn: RollupFunction, inputs: RollupInput[]): RollupResult {
  const perPage = inputs.map((input) => atomsOf(input));
  const atoms = perPage.flat();
  const pages = inputs.length;
  const emptyPages = perPage.filter((a) => a.length === 0).length;
  const number = (value: number | null): RollupResult => ({
    type: 'number',
    number: value !== null && Number.isFinite(value) ? value : null,
    function: fn,
  });
  const fraction = (part: number, whole: number): RollupResult => number(whole === 0 ? 0 : part / whole);

  switch (fn) {
    case 'count':
      return number(pages);
    case 'count_values':
      return number(atoms.length);
    case 'empty':
      return number(emptyPages);
    case 'not_empty':
      return number(pages - emptyPages);
    case 'unique':
      return number(new Set(atoms.map((a) => a.key)).size);
    case 'percent_empty':
      return fraction(emptyPages, pages);
    case 'percent_not_empty':
      return fraction(pages - emptyPages, pages);
    case 'sum':
    case 'average':
    case 'median':
    case 'min':
    case 'max':
    case 'range':
      return number(numeric(fn, numbersOf(atoms)));
    case 'earliest_date':
    case 'latest_date':
    case 'date_range':
      return { type: 'date', date: dateResult(fn, atoms), function: fn };
    case 'checked':
      return number(booleansOf(atoms).filter((b) => b).length);
    case 'unchecked':
      return number(booleansOf(atoms).filter((b) => !b).length);
    case 'percent_checked': {
      const booleans = booleansOf(atoms);
      return fraction(booleans.filter((b) => b).length, booleans.length);
    }
    case 'percent_unchecked': {
      const booleans = booleansOf(atoms);
      return fraction(booleans.filter((b) => !b).length, booleans.length);
    }
    case 'count_per_group':
      return { type: 'array', array: groups(perPage).map(([group, count]) => ({ type: 'number', number: count, group })), function: fn };
    case 'percent_per_group':
      return {
        type: 'array',
        array: groups(perPage).map(([group, count]) => ({ type: 'number', number: pages === 0 ? 0 : count / pages, group })),
        function: fn,
      };
    case 'show_original':
      return { type: 'array', array: [...inputs], function: fn };
    case 'show_unique':
      return { type: 'array', array: uniqueValues(inputs), function: fn };
  }
}

function numbersOf(atoms: Atom[]): number[] {
  return atoms.flatMap((a) => (a.kind === 'number' ? [a.value] : []));
}

function booleansOf(atoms: Atom[]): boolean[] {
  return atoms.flatMap((a) => (a.kind === 'boolean' ? [a.value] : []));
}

function numeric(fn: 'sum' | 'average' | 'median' | 'min' | 'max' | 'range', xs: number[]): number | null {
  if (xs.length === 0) return null;
  const total = xs.reduce((s, x) => s + x, 0);
  const min = xs.reduce((m, x) => (x < m ? x : m));
  const max = xs.reduce((m, x) => (x > m ? x : m));
  switch (fn) {
    case 'sum':
      return total;
    case 'average':
      return total / xs.length;
    case 'median': {
      const sorted = [...xs].sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
    case 'min':
      return min;
    case 'max':
      return max;
    case 'range':
      return max - min;
  }
}

/** Earliest start and latest end (a range's end counts as its latest moment); strings are returned as written. */
function dateResult(fn: 'earliest_date' | 'latest_date' | 'date_range', atoms: Atom[]): RollupDate | null {
  const dates = atoms.flatMap((a) => (a.kind === 'date' ? [a] : []));
  if (dates.length === 0) return null;
  const earliest = dates.reduce((m, d) => (d.startMs < m.startMs ? d : m));
  const latest = dates.reduce((m, d) => (d.endMs > m.endMs ? d : m));
  switch (fn) {
    case 'earliest_date':
      return { start: earliest.start, end: null, time_zone: null };
    case 'latest_date':
      return { start: latest.end, end: null, time_zone: null };
    case 'date_range':
      return { start: earliest.start, end: latest.end, time_zone: null };
  }
}

function groups(perPage: Atom[][]): [string | null, number][] {
  const counts = new Map<string, { label: string; count: number }>();
  let empty = 0;
  for (const atoms of perPage) {
    if (atoms.length === 0) {
      empty++;
      continue;
    }
    // A page counts once per distinct value even if the value repeats within it.
    const seen = new Set<string>();
    for (const a of atoms) {
      if (seen.has(a.key)) continue;
      seen.add(a.key);
      const entry = counts.get(a.key);
      if (entry === undefined) counts.set(a.key, { label: a.label, count: 1 });
      else entry.count++;
    }
  }
  const out: [string | null, number][] = [...counts.values()].map((e) => [e.label, e.count]);
  if (empty > 0) out.push([null, empty]);
  return out;
}

/**
 * Distinct non-empty values in order of first appearance. Multi-valued
 * properties are split so each option/person/page appears once, as a
 * single-element value of the same property type.
 */
function uniqueValues(inputs: RollupInput[]): RollupInput[] {
  const seen = new Set<string>();
  const out: RollupInput[] = [];
  for (const input of inputs) {
    const payload = input[input.type];
    if (definitionOf(input.type)?.multiValued && Array.isArray(payload)) {
      for (const item of payload) {
        const single: RollupInput = { type: input.type, [input.type]: [item] };
        const atoms = atomsOf(single);
        const key = atoms.map((a) => a.key).join('|');
        if (atoms.length === 0 || seen.has(key)) continue;
        seen.add(key);
        out.push(single);
      }
      continue;
    }
    const atoms = atomsOf(input);
    if (atoms.length === 0) continue;
    const key = atoms.length === 1 ? atoms[0].key : stableKey(atoms.map((a) => a.key));
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(input);
  }
  return out;
}
