/**
 * Random query filters over the fixture's "Items" data source: a leaf for every type key and
 * operator (arrays and group names for options, `me`, relative dates and windows, the timestamp
 * filter, formula sub-keys, rollup any/every/none/number/date, properties by name or id), and
 * `and`/`or` groups nested up to the two levels the spec allows. Operands are drawn mostly from
 * the fixture's own values, cut and case-changed, so conditions land on both sides of each value.
 */
import fc from 'fast-check';
import { EDGE_DAYS, EMAILS, LABEL_OPTIONS, PHONES, STATUS_GROUPS, TAG_OPTIONS, TEXTS, URLS, isoDay } from './fixture.js';
import { parseIso, type DataSourceObject, type PageObject, type QueryFilter, type QuerySorts } from './reference.js';

type Json = Record<string, any>;

const DAY = 86_400_000;
const MINUTE = 60_000;
const TEXT_KEYS = ['rich_text', 'title', 'url', 'email', 'phone_number'];
const RELATIVE_DATES = ['today', 'tomorrow', 'yesterday', 'one_week_ago', 'one_week_from_now', 'one_month_ago', 'one_month_from_now'];
const WINDOWS = ['past_week', 'past_month', 'past_year', 'next_week', 'next_month', 'next_year', 'this_week'];
const DATE_COMPARISONS = ['equals', 'before', 'after', 'on_or_before', 'on_or_after'];
const NUMBER_COMPARISONS = ['equals', 'does_not_equal', 'greater_than', 'greater_than_or_equal_to', 'less_than', 'less_than_or_equal_to'];
const TEXT_COMPARISONS = ['equals', 'does_not_equal', 'contains', 'does_not_contain', 'starts_with', 'ends_with'];
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

export interface FilterContext {
  items: DataSourceObject;
  targets: DataSourceObject;
  /** Every page of both data sources, those in the trash included. */
  pages: PageObject[];
  userIds: string[];
  day0: number;
  timestamps: { first: number; last: number };
}

/** A text with its case changed and decomposed: each equal to it once folded. */
const wholes = (s: string) => [s, s.toUpperCase(), s.toLowerCase(), s.normalize('NFD')];

/** Pieces of a text, cut between code points (never inside a surrogate pair). */
function pieces(s: string): string[] {
  const cps = Array.from(s);
  return [cps.slice(0, 3), cps.slice(-3), cps.slice(1, -1), cps.slice(2, 5)].map((p) => p.join(''));
}

/** An instant written as UTC, with an offset, or with no offset (which reads as UTC). */
function writeInstant(ms: number, form: number): string {
  const utc = new Date(ms).toISOString();
  if (form === 0) return utc;
  if (form === 1) return utc.slice(0, -1);
  const offsetMinutes = form === 2 ? 330 : -480;
  const shifted = new Date(ms + offsetMinutes * MINUTE).toISOString().slice(0, -1);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${shifted}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function textOf(value: Json | undefined): string[] {
  if (!value) return [];
  const v = value[value.type as string];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((i) => typeof i?.plain_text === 'string')) return [v.map((i) => i.plain_text as string).join('')];
  if (value.type === 'formula' && typeof value.formula.string === 'string') return [value.formula.string as string];
  return [];
}

function datesOf(value: Json | undefined): string[] {
  if (!value) return [];
  const holder = value.type === 'formula' ? value.formula : value.type === 'rollup' ? value.rollup : value;
  const date = holder?.date as Json | null | undefined;
  if (!date) return [];
  return [date.start, date.end].filter((d): d is string => typeof d === 'string');
}

function numbersOf(value: Json | undefined): number[] {
  if (!value) return [];
  if (value.type === 'number' && typeof value.number === 'number') return [value.number];
  if (value.type === 'unique_id') return [value.unique_id.number as number];
  if (value.type === 'formula' && typeof value.formula.number === 'number') return [value.formula.number];
  if (value.type === 'rollup' && typeof value.rollup.number === 'number') return [value.rollup.number];
  return [];
}

const GENERIC_TEXTS = ['', ' ', 'zzz', '%', '_', '\\', 'e', 'É', 'ss', 'ß', 'i\u0307', 'I', 'k', 'K', 'ı', 'γ'];

export function filterArbitrary(ctx: FilterContext): fc.Arbitrary<QueryFilter> {
  /** The values of a property on every page of its data source, those in the trash included. */
  const valuesOf = (dataSourceId: string, name: string) => ctx.pages.filter((p) => p.parent.data_source_id === dataSourceId).map((p) => p.properties[name]);

  // Operands come mostly from the property's own values, so that conditions often hold for some
  // pages and not for others.
  const textOperand = (values: Json[], fromPieces: boolean) => {
    const texts = [...TEXTS, ...URLS, ...EMAILS, ...PHONES];
    const own = [...new Set(values.flatMap(textOf))];
    const whole = new Set(own.flatMap(wholes));
    const cut = new Set(own.flatMap((s) => [...wholes(s), ...wholes(s).flatMap(pieces)]));
    // Titles and rich text are made of TEXTS pieces: a piece's variants are often inside a value.
    if (fromPieces) for (const t of TEXTS) for (const v of [...wholes(t), ...pieces(t)]) cut.add(v);
    return fc.oneof(
      { arbitrary: fc.constantFrom(...(whole.size ? whole : texts)), weight: 3 },
      { arbitrary: fc.constantFrom(...(cut.size ? cut : texts)), weight: 3 },
      { arbitrary: fc.constantFrom(...GENERIC_TEXTS), weight: 1 },
      { arbitrary: fc.constantFrom(...texts.flatMap(wholes)), weight: 1 },
    );
  };

  const numberOperand = (values: Json[]) => {
    const numbers = new Set<number>([0, -1000, 1e9]);
    for (const n of values.flatMap(numbersOf)) for (const d of [0, 0, -0.25, 0.25, 1]) numbers.add(n + d);
    return fc.oneof({ arbitrary: fc.constantFrom(...numbers), weight: 4 }, { arbitrary: fc.integer({ min: -60, max: 60 }), weight: 1 });
  };

  const day = fc.oneof(fc.constantFrom(...EDGE_DAYS), fc.integer({ min: -420, max: 420 })).map((d) => isoDay(ctx.day0 + d * DAY));
  const dateOperand = (values: Json[]) => {
    const written = [...new Set(values.flatMap(datesOf))];
    const instants = [...new Set(written.map((d) => parseIso(d).ms)), ctx.day0];
    return fc.oneof(
      { arbitrary: fc.constantFrom(...RELATIVE_DATES), weight: 2 },
      { arbitrary: day, weight: 3 },
      {
        arbitrary: fc
          .tuple(fc.constantFrom(...instants), fc.constantFrom(0, 0, 0, -1, 1, -3_600_000, DAY), fc.nat({ max: 3 }))
          .map(([ms, d, form]) => writeInstant(ms + d, form)),
        weight: 4,
      },
      { arbitrary: fc.constantFrom(...(written.length ? written : RELATIVE_DATES)), weight: 1 },
    );
  };
  // Pages show their times cut to the minute: instants stay minutes away from every page's
  // times, where the cut cannot move a page across the operand.
  const { first, last } = ctx.timestamps;
  const timestampOperand = fc.oneof(
    fc.constantFrom(...RELATIVE_DATES),
    day,
    fc
      .tuple(
        fc.constantFrom(first - 2 * MINUTE - 1, first - 3_600_000, first - 3 * DAY, last + 2 * MINUTE, last + 3_600_000, last + 3 * DAY),
        fc.nat({ max: 3 }),
      )
      .map(([ms, form]) => writeInstant(ms, form)),
  );

  const targetIds = ctx.pages.filter((p) => p.parent.data_source_id === ctx.targets.id).map((p) => p.id);
  const itemIds = ctx.pages.filter((p) => p.parent.data_source_id === ctx.items.id).map((p) => p.id);
  const relationOperand = fc.constantFrom(...targetIds, ...itemIds.slice(0, 3), UNKNOWN_ID);
  const peopleOperand = fc.constantFrom(...ctx.userIds, 'me', 'me', UNKNOWN_ID);

  const op = <T>(names: string[], operand: fc.Arbitrary<T>) => fc.tuple(fc.constantFrom(...names), operand).map(([name, v]) => ({ [name]: v }));
  const existence = fc.constantFrom({ is_empty: true }, { is_not_empty: true });
  const textCondition = (values: Json[], fromPieces: boolean) =>
    fc.oneof({ arbitrary: op(TEXT_COMPARISONS, textOperand(values, fromPieces)), weight: 6 }, { arbitrary: existence, weight: 1 });
  const numberCondition = (values: Json[], empties: boolean) =>
    empties
      ? fc.oneof({ arbitrary: op(NUMBER_COMPARISONS, numberOperand(values)), weight: 6 }, { arbitrary: existence, weight: 1 })
      : op(NUMBER_COMPARISONS, numberOperand(values));
  const checkboxCondition = op(['equals', 'does_not_equal'], fc.boolean());
  const dateCondition = (operand: fc.Arbitrary<string>) =>
    fc.oneof(
      { arbitrary: op(DATE_COMPARISONS, operand), weight: 6 },
      { arbitrary: fc.constantFrom(...WINDOWS).map((w) => ({ [w]: {} })), weight: 3 },
      { arbitrary: existence, weight: 1 },
    );
  const namesOperand = (names: string[]) => fc.oneof(fc.constantFrom(...names), fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 3 }));
  const optionCondition = (ops: string[], names: string[]) =>
    fc.oneof({ arbitrary: op(ops, namesOperand(names)), weight: 4 }, { arbitrary: existence, weight: 1 });
  const peopleCondition = fc.oneof({ arbitrary: op(['contains', 'does_not_contain'], peopleOperand), weight: 4 }, { arbitrary: existence, weight: 1 });
  const relationCondition = fc.oneof({ arbitrary: op(['contains', 'does_not_contain'], relationOperand), weight: 4 }, { arbitrary: existence, weight: 1 });

  const statusNames = (schema: Json) => [...(schema.status.options as Json[]).map((o) => o.name as string), ...STATUS_GROUPS, 'done', 'Nope'];

  /** The condition object for a property of a type, keyed as the filter names it; `values` are the property's values. */
  const conditionFor = (type: string, property: Json, values: Json[]): fc.Arbitrary<[string, Json]> | null => {
    const keyed = (key: fc.Arbitrary<string>, condition: fc.Arbitrary<Json>) => fc.tuple(key, condition);
    const own = fc.constant(type);
    switch (type) {
      case 'title':
      case 'rich_text':
      case 'url':
      case 'email':
      case 'phone_number':
        // Any text key fits any text property.
        return keyed(
          fc.oneof({ arbitrary: own, weight: 3 }, { arbitrary: fc.constantFrom(...TEXT_KEYS), weight: 1 }),
          textCondition(values, type === 'title' || type === 'rich_text'),
        );
      case 'number':
        return keyed(own, numberCondition(values, true));
      case 'unique_id':
        return keyed(own, numberCondition(values, false));
      case 'checkbox':
        return keyed(own, checkboxCondition);
      case 'select':
        return keyed(own, optionCondition(['equals', 'does_not_equal'], [...TAG_OPTIONS, 'alpha', 'éclair', 'Nope']));
      case 'status':
        return keyed(own, optionCondition(['equals', 'does_not_equal'], statusNames(property)));
      case 'multi_select':
        return keyed(own, optionCondition(['contains', 'does_not_contain'], [...LABEL_OPTIONS, 'Red', 'STRASSE', 'über', 'Nope']));
      case 'date':
        return keyed(own, dateCondition(dateOperand(values)));
      case 'created_time':
      case 'last_edited_time':
        return keyed(fc.constantFrom(type, 'date'), dateCondition(timestampOperand));
      case 'people':
        return keyed(own, peopleCondition);
      case 'created_by':
      case 'last_edited_by':
        return keyed(fc.constantFrom(type, 'people'), peopleCondition);
      case 'files':
        return keyed(own, existence);
      case 'relation':
        return keyed(own, relationCondition);
      case 'verification':
        return keyed(own, op(['status', 'does_not_equal'], fc.constantFrom('verified', 'expired', 'none')));
    }
    return null;
  };

  const formulaCondition = (values: Json[]): fc.Arbitrary<Json> => {
    const type = values.find((v) => v)?.formula.type as string;
    switch (type) {
      case 'string':
        return textCondition(values, true).map((c) => ({ string: c }));
      case 'number':
        return numberCondition(values, true).map((c) => ({ number: c }));
      case 'boolean':
        return checkboxCondition.map((c) => ({ checkbox: c }));
      case 'date':
        return dateCondition(dateOperand(values)).map((c) => ({ date: c }));
    }
    throw new Error(`no conditions for a formula of type ${type}`);
  };

  const rollupCondition = (config: Json, values: Json[]): fc.Arbitrary<Json> => {
    const fn = config.function as string;
    if (['earliest_date', 'latest_date', 'date_range'].includes(fn)) return dateCondition(dateOperand(values)).map((c) => ({ date: c }));
    if (!['show_original', 'show_unique'].includes(fn)) return numberCondition(values, true).map((c) => ({ number: c }));
    const [rolledName, rolled] = Object.entries(ctx.targets.properties).find(([, p]) => p.id === config.rollup_property_id)!;
    const inner = conditionFor(rolled.type as string, rolled, valuesOf(ctx.targets.id, rolledName))!;
    // Sub-conditions name the rolled-up type; the only text key they have is rich_text.
    const subKey = TEXT_KEYS.includes(rolled.type as string) ? 'rich_text' : (rolled.type as string);
    return fc.tuple(fc.constantFrom('any', 'every', 'none'), inner).map(([quantifier, [, condition]]) => ({ [quantifier]: { [subKey]: condition } }));
  };

  // The SDK's filter types let a leaf repeat its type key as `type`.
  const typed = fc.oneof({ arbitrary: fc.constant(false), weight: 9 }, { arbitrary: fc.constant(true), weight: 1 });
  const leaves: Array<fc.WeightedArbitrary<Json>> = [];
  for (const [name, property] of Object.entries(ctx.items.properties)) {
    const ref = fc.constantFrom(name, property.id as string);
    const type = property.type as string;
    let condition: fc.Arbitrary<[string, Json]> | null;
    const values = valuesOf(ctx.items.id, name);
    if (type === 'formula') condition = formulaCondition(values).map((c) => ['formula', c]);
    else if (type === 'rollup') condition = rollupCondition(property.rollup as Json, values).map((c) => ['rollup', c]);
    else condition = conditionFor(type, property, values);
    if (!condition) throw new Error(`no conditions for ${name} (${type})`);
    // Rollups are a third of the properties: half a weight each keeps the other types frequent.
    leaves.push({
      arbitrary: fc.tuple(ref, condition, typed).map(([property, [key, c], withType]) => ({ property, ...(withType ? { type: key } : {}), [key]: c })),
      weight: type === 'rollup' ? 1 : 2,
    });
  }
  for (const timestamp of ['created_time', 'last_edited_time']) {
    leaves.push({
      arbitrary: fc
        .tuple(dateCondition(timestampOperand), typed)
        .map(([c, withType]) => ({ timestamp, ...(withType ? { type: timestamp } : {}), [timestamp]: c })),
      weight: 2,
    });
  }

  const leaf = fc.oneof(...leaves);
  const group = (item: fc.Arbitrary<Json>) =>
    fc.tuple(fc.constantFrom('and', 'or'), fc.array(item, { minLength: 1, maxLength: 4 })).map(([kind, items]) => ({ [kind]: items }));
  const nested = fc.oneof({ arbitrary: leaf, weight: 3 }, { arbitrary: group(leaf), weight: 1 });
  return fc.oneof({ arbitrary: leaf, weight: 2 }, { arbitrary: group(nested), weight: 3 }).map((f) => f as QueryFilter);
}

/** One or two sort keys: properties (by name or id) whose order the decisions fix (not files, not lists of values), or a timestamp. */
export function sortsArbitrary(ctx: FilterContext): fc.Arbitrary<QuerySorts> {
  const sortable = Object.entries(ctx.items.properties).filter(
    ([, p]) => p.type !== 'files' && !(p.type === 'rollup' && ['show_original', 'show_unique'].includes(p.rollup.function)),
  );
  const direction = fc.constantFrom('ascending' as const, 'descending' as const);
  const key = fc.oneof(
    {
      arbitrary: fc
        .tuple(fc.constantFrom(...sortable.flatMap(([name, p]) => [name, p.id as string])), direction)
        .map(([property, d]) => ({ property, direction: d })),
      weight: 4,
    },
    {
      arbitrary: fc
        .tuple(fc.constantFrom('created_time' as const, 'last_edited_time' as const), direction)
        .map(([timestamp, d]) => ({ timestamp, direction: d })),
      weight: 1,
    },
  );
  return fc.array(key, { minLength: 1, maxLength: 2 });
}
