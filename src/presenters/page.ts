import { objectUrl } from '../ids/objectUrl.js';
import type { ObjectRow } from '../storage/schema.js';
import type { PresentedValueRow } from '../storage/repositories/propertyValues.js';
import { partialUser, presentTimestamp } from './time.js';
import type { PageContent } from '../domain/contentShapes.js';
import type { PageView, Unreadable } from '../domain/views.js';
import { PAGE_REFERENCE_LIMIT } from '../domain/properties/propertyTypes.js';
import { definitionOf } from '../domain/properties/registry.js';
import type { FromPageRow } from '../domain/properties/types/definition.js';
import type { Static } from 'typebox';
import type { PageObject, WrittenPageResponse } from '../schemas/pages.js';
import type { FileObject, Parent } from '../schemas/objectParts.js';

type PageJson = Static<typeof PageObject>;
/** A page's property value: its id and type, and the member the type names (open in the schema). */
type PropertyValueJson = PageJson['properties'][string] & Record<string, unknown>;

/** Every parent but the workspace has an id (objects.parent_id is null only for workspace parents). */
export function presentParent(row: Pick<ObjectRow, 'parent_type' | 'parent_id'>, databaseId?: string | null): Static<typeof Parent> {
  const id = row.parent_id as string;
  switch (row.parent_type) {
    case 'workspace':
      return { type: 'workspace', workspace: true };
    case 'data_source_id':
      return { type: 'data_source_id', data_source_id: id, database_id: databaseId ?? null };
    case 'page_id':
      return { type: 'page_id', page_id: id };
    case 'block_id':
      return { type: 'block_id', block_id: id };
    case 'database_id':
      return { type: 'database_id', database_id: id };
  }
}

/** A value a page shows from its row (timestamps and authors), as the page and the property item endpoint show it. */
export function presentFromRow(row: ObjectRow, fromRow: FromPageRow): unknown {
  const cell = row[fromRow.column];
  return fromRow.as === 'timestamp' ? presentTimestamp(cell) : partialUser(cell);
}

/** A stored value as the page shows it: timestamps and authors from the row, long lists cut at 25. */
function presentValue(row: ObjectRow, propertyId: string, stored: Record<string, unknown>): PropertyValueJson {
  const type = stored.type as string;
  const rules = definitionOf(type)?.page;
  if (rules?.fromRow) return { id: propertyId, type, [type]: presentFromRow(row, rules.fromRow) };
  const value = { id: propertyId, ...stored } as PropertyValueJson;
  if (rules?.referenceList && Array.isArray(stored[type])) {
    const list = stored[type] as unknown[];
    value[type] = list.slice(0, PAGE_REFERENCE_LIMIT);
    // The rest is read through the property item endpoint (FACTS.md §6 "Size limits").
    if (rules.hasMore) value.has_more = list.length > PAGE_REFERENCE_LIMIT;
  }
  return value;
}

/**
 * A stored value no longer than this holds at most PAGE_REFERENCE_LIMIT items in any list: 26
 * items of the smallest kind, a relation's {"id":"<uuid>"} (43 characters), need 1,143.
 */
const SHORT_ENOUGH_FOR_ANY_LIST = 26 * 43 + 25;

const TYPE_PREFIX = '{"type":"';

/**
 * How a page writes a stored value of one type from its text (presentValue's rules, without
 * parsing): as stored; as stored with `has_more` (a list short enough holds no more than a page
 * shows); from the page row, where the stored text gives only the type; or parsed and presented.
 */
type ValueWriting = { kind: 'stored' } | { kind: 'hasMore'; listStart: string } | { kind: 'fromRow'; fromRow: FromPageRow; head: string } | { kind: 'parsed' };

const PARSED: ValueWriting = { kind: 'parsed' };
const AS_STORED: ValueWriting = { kind: 'stored' };

/** Per type name, how its values are written (types this code does not know are parsed). */
const writings = new Map<string, ValueWriting>();

function writingOf(type: string): ValueWriting {
  let writing = writings.get(type);
  if (writing === undefined) {
    const rules = definitionOf(type)?.page;
    const quoted = JSON.stringify(type);
    writing = !rules
      ? PARSED
      : rules.fromRow
        ? { kind: 'fromRow', fromRow: rules.fromRow, head: `"type":${quoted},${quoted}:` }
        : rules.hasMore
          ? { kind: 'hasMore', listStart: `${TYPE_PREFIX}${type}",${quoted}:[` }
          : AS_STORED;
    writings.set(type, writing);
  }
  return writing;
}

/**
 * A stored value at position `at` as `"name":` and the JSON text of presentValue's object, built
 * from the stored text where the type allows. Text this code did not write, and lists that may
 * need cutting, are parsed and presented as usual.
 */
function valueText(row: ObjectRow, names: NamesText, at: number, propertyId: string, text: string): string {
  if (text.length < SHORT_ENOUGH_FOR_ANY_LIST && text.startsWith(TYPE_PREFIX)) {
    const writing = writingOf(text.slice(TYPE_PREFIX.length, text.indexOf('"', TYPE_PREFIX.length)));
    switch (writing.kind) {
      case 'stored':
        return names.openers[at] + text.slice(1);
      case 'fromRow':
        return `${names.openers[at]}${writing.head}${JSON.stringify(presentFromRow(row, writing.fromRow))}}`;
      case 'hasMore':
        if (text.startsWith(writing.listStart) && text.endsWith(']}')) return `${names.openers[at]}${text.slice(1, -1)},"has_more":false}`;
        break;
      case 'parsed':
        break;
    }
  }
  return names.keys[at] + JSON.stringify(presentValue(row, propertyId, JSON.parse(text) as Record<string, unknown>));
}

export interface PresentPageOptions {
  baseUrl: string;
  /** `filter_properties` as given: ids (or names, URL-encoded or not) of the properties to include. */
  filterProperties?: readonly string[];
}

function decodeKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/**
 * The values a page shows, each with its name, in the order the data source lists its
 * properties (retrieving a page and search show them alike); `filter_properties` applied.
 */
function shownValues(view: PageView, filterProperties: readonly string[] | undefined): Array<[string, PresentedValueRow]> {
  const shown: Array<[string, PresentedValueRow]> = [];
  const wanted = filterProperties ? new Set(filterProperties.map(decodeKey)) : undefined;
  const keep = (id: string, name: string) => !wanted || wanted.has(id) || wanted.has(name);
  if (!view.names) {
    for (const value of view.values) if (value.property_id === 'title' && keep('title', 'title')) shown.push(['title', value]);
    return shown;
  }
  const byId = new Map(view.values.map((v) => [v.property_id, v]));
  for (const [id, name] of view.names) {
    const value = byId.get(id);
    if (value && keep(id, name)) shown.push([name, value]);
  }
  return shown;
}

/**
 * The page object at the newest version (spec "Page object"; FACTS.md §9), built field by field.
 * The view's `names` map property ids to names (the data source schema); pages outside a
 * database have only their title, named "title".
 */
export function presentPage(view: PageView, options: PresentPageOptions): PageJson {
  const row = view.row;
  const content = JSON.parse(row.content) as PageContent;
  const properties: PageJson['properties'] = {};
  for (const [name, value] of shownValues(view, options.filterProperties)) {
    properties[name] = presentValue(row, value.property_id, JSON.parse(value.value) as Record<string, unknown>);
  }
  return {
    object: 'page',
    id: row.id,
    created_time: presentTimestamp(row.created_time),
    last_edited_time: presentTimestamp(row.last_edited_time),
    created_by: partialUser(row.created_by),
    last_edited_by: partialUser(row.last_edited_by),
    cover: (content.cover ?? null) as Static<typeof FileObject>,
    icon: (content.icon ?? null) as Static<typeof FileObject>,
    parent: presentParent(row, view.databaseId),
    in_trash: row.in_trash === 1,
    is_archived: row.is_archived === 1,
    is_locked: row.is_locked === 1,
    properties,
    url: objectUrl(options.baseUrl, row.id),
    public_url: null,
  };
}

/** Property names a JavaScript object would not keep in the order they come: array indexes go first. */
const INDEX_LIKE = /^(?:0|[1-9]\d{0,9})$/;

/**
 * A schema's property positions, `"name":` texts, and `"name":{"id":"…",` texts (a value written
 * from its stored text follows with that text after its `{`), for writing pages as text.
 */
interface NamesText {
  position: ReadonlyMap<string, number>;
  keys: readonly string[];
  openers: readonly string[];
}

/**
 * Per names map (commands/search/loadObjectViews.ts caches them with their parsed schema), or null when a name
 * is one an object would reorder (an array index) or merge (a repeat): presentPage decides those.
 */
const namesTexts = new WeakMap<ReadonlyMap<string, string>, NamesText | null>();
const TITLE_ONLY: NamesText = { position: new Map([['title', 0]]), keys: ['"title":'], openers: ['"title":{"id":"title",'] };

function namesText(names: ReadonlyMap<string, string>): NamesText | null {
  let text = namesTexts.get(names);
  if (text === undefined) {
    const seen = new Set(names.values());
    const writable = seen.size === names.size && ![...seen].some((name) => INDEX_LIKE.test(name));
    const keys = [...names.values()].map((name) => `${JSON.stringify(name)}:`);
    text = writable
      ? {
          position: new Map([...names.keys()].map((id, i) => [id, i])),
          keys,
          openers: [...names.keys()].map((id, i) => `${keys[i]}{"id":${JSON.stringify(id)},`),
        }
      : null;
    namesTexts.set(names, text);
  }
  return text;
}

const NO_ICON_NOR_COVER = '{"icon":null,"cover":null}';
const NO_CONTENT: PageContent = { icon: null, cover: null };

/** The last base URL seen, as the start of a JSON string: one server has one. */
let urlStart = { baseUrl: '', text: '' };

/**
 * The page of presentPage as the JSON text JSON.stringify would write for it, for responses at
 * the newest version (jsonSplice.ts): values shown as stored are written from their stored text,
 * and no object is built only to be written out. test/content/pageText.test.ts holds the two to
 * the same bytes; names an object would reorder or merge, and filter_properties, are left to
 * presentPage. Ids are the store's own UUIDs, written without escaping.
 */
export function presentPageText(view: PageView, options: PresentPageOptions): string {
  const { row, databaseId } = view;
  const names = view.names ? namesText(view.names) : TITLE_ONLY;
  if (names === null || options.filterProperties) return JSON.stringify(presentPage(view, options));
  // Each value in the slot of its property's position: the store returns them in another order.
  const slots: Array<PresentedValueRow | undefined> = new Array<PresentedValueRow | undefined>(names.keys.length);
  for (const value of view.values) {
    const at = names.position.get(value.property_id);
    if (at !== undefined) slots[at] = value;
  }
  let properties = '';
  for (let at = 0; at < slots.length; at++) {
    const value = slots[at];
    if (value === undefined) continue;
    if (properties !== '') properties += ',';
    properties += valueText(row, names, at, value.property_id, value.value);
  }
  // What createPage writes for a page with neither, read without parsing.
  const content = row.content === NO_ICON_NOR_COVER ? NO_CONTENT : (JSON.parse(row.content) as PageContent);
  if (urlStart.baseUrl !== options.baseUrl) urlStart = { baseUrl: options.baseUrl, text: JSON.stringify(`${options.baseUrl}/`).slice(0, -1) };
  const parent =
    row.parent_type === 'data_source_id'
      ? `{"type":"data_source_id","data_source_id":"${row.parent_id}","database_id":${databaseId ? `"${databaseId}"` : 'null'}}`
      : JSON.stringify(presentParent(row, databaseId));
  return (
    `{"object":"page","id":"${row.id}","created_time":"${presentTimestamp(row.created_time)}","last_edited_time":"${presentTimestamp(row.last_edited_time)}",` +
    `"created_by":{"object":"user","id":"${row.created_by}"},"last_edited_by":{"object":"user","id":"${row.last_edited_by}"},` +
    `"cover":${content.cover ? JSON.stringify(content.cover) : 'null'},"icon":${content.icon ? JSON.stringify(content.icon) : 'null'},"parent":${parent},` +
    `"in_trash":${row.in_trash === 1},"is_archived":${row.is_archived === 1},"is_locked":${row.is_locked === 1},"properties":{${properties}},` +
    `"url":${urlStart.text}${row.id.replaceAll('-', '')}","public_url":null}`
  );
}

/** A written page: in full, or only `{object, id}` to a connection that may create but not read (FACTS.md §2 capabilities). */
export function presentWrittenPage(view: PageView | Unreadable, options: PresentPageOptions): Static<typeof WrittenPageResponse> {
  if (view.kind === 'unreadable') return { object: 'page', id: view.id };
  return presentPage(view, options);
}
