import type { Db } from '../../storage/db.js';
import type { MentionResolver } from '../richText.js';
import { normalizeRichText } from '../richText.js';
import type { RichTextItemInput } from '../../schemas/richText.js';
import { assertMatches, invalidField, propertyValueSchema, type FieldPath } from '../../schemas/properties.js';
import { normalizeId } from '../../http/ids.js';
import { checkDate, type DateInput } from './dates.js';
import { COMPUTED_TYPES, SELECT_COLORS, VALUE_LIMITS } from './propertyTypes.js';
import { configOf, newOptionId, type Property, type RelationConfig, type SelectConfig, type SelectOption, type StatusConfig } from './schemaTypes.js';
import { findPagesIn, findWorkspaceUserIds } from '../../storage/repositories/pageValues.js';

/** A property value as stored and presented: `{type, <type>: value}` (the page object's shape without `id`). */
export interface StoredValue {
  type: string;
  [member: string]: unknown;
}

/** What normalising request values needs from the request and the store. */
export interface ValueContext {
  db: Db;
  workspaceId: string;
  actorId: string;
  resolver: MentionResolver;
  /** Set when a select or multi_select value created an option: the schema must be saved. */
  schemaChanged: boolean;
}

interface OptionInput {
  id?: string;
  name?: string;
  color?: string;
  description?: string | null;
}

/** Option colours for created options, cycled like the service's palette. */
function nextColor(options: readonly SelectOption[]): SelectOption['color'] {
  return SELECT_COLORS[(options.length % (SELECT_COLORS.length - 1)) + 1];
}

function checkOptionName(name: string, path: FieldPath): void {
  // The service refuses commas in option names: they separate options in its CSV import.
  if (name.includes(',')) throw invalidField([...path, 'name'], 'should not contain a comma', name);
}

/**
 * Finds an option by id or name. An unknown name creates the option (select and multi_select only,
 * as the service does); an unknown id, or an unknown status name, is refused.
 */
function resolveOption(ctx: ValueContext, property: Property, input: OptionInput, path: FieldPath, create: boolean): SelectOption {
  const config = configOf<SelectConfig | StatusConfig>(property);
  if (input.id === undefined && input.name === undefined) throw invalidField([...path, 'name'], 'should be defined', undefined);
  if (input.id !== undefined) {
    const byId = config.options.find((o) => o.id === input.id);
    if (!byId) throw invalidField([...path, 'id'], `should be the id of an option of ${property.name}`, input.id);
    if (input.name !== undefined && input.name !== byId.name) throw invalidField([...path, 'name'], `should be ${JSON.stringify(byId.name)}`, input.name);
    return byId;
  }
  const name = input.name!;
  const byName = config.options.find((o) => o.name === name);
  if (byName) return byName;
  if (!create) throw invalidField([...path, 'name'], `should be the name of an option of ${property.name}`, name);
  checkOptionName(name, path);
  const option: SelectOption = {
    id: newOptionId(),
    name,
    color: (input.color as SelectOption['color'] | undefined) ?? nextColor(config.options),
    description: input.description ?? null,
  };
  (config.options as SelectOption[]).push(option);
  ctx.schemaChanged = true;
  return option;
}

const presentOption = (o: SelectOption) => ({ id: o.id, name: o.name, color: o.color });

async function normalizeMember(ctx: ValueContext, property: Property, member: unknown, path: FieldPath): Promise<unknown> {
  switch (property.type) {
    case 'title':
    case 'rich_text':
      return normalizeRichText(member as RichTextItemInput[], ctx.resolver);
    case 'number':
    case 'checkbox':
      return member;
    case 'url':
    case 'email':
    case 'phone_number':
      // The service stores an empty string as no value.
      return member === '' ? null : member;
    case 'select':
      return member === null ? null : presentOption(resolveOption(ctx, property, member as OptionInput, path, true));
    case 'status':
      return member === null ? null : presentOption(resolveOption(ctx, property, member as OptionInput, path, false));
    case 'multi_select': {
      const seen = new Set<string>();
      const out: ReturnType<typeof presentOption>[] = [];
      (member as OptionInput[]).forEach((input, i) => {
        const option = resolveOption(ctx, property, input, [...path, i], true);
        if (!seen.has(option.id)) out.push(presentOption(option));
        seen.add(option.id);
      });
      return out;
    }
    case 'date':
      return member === null ? null : checkDate(member as DateInput, path);
    case 'people':
      return normalizePeople(ctx, member as { id: string }[], path);
    case 'relation':
      return normalizeRelation(ctx, property, member as { id: string }[], path);
    case 'files':
      return normalizeFiles(member as FileInput[], path);
    case 'verification':
      return normalizeVerification(ctx, member as VerificationInput | null, path);
    default:
      throw invalidField(path, 'should be not present', member);
  }
}

async function normalizePeople(ctx: ValueContext, people: { id: string }[], path: FieldPath) {
  const ids = people.map((p) => normalizeId(p.id)!);
  const known = await findWorkspaceUserIds(ctx.db, ctx.workspaceId, ids);
  const unique: string[] = [];
  ids.forEach((id, i) => {
    if (!known.has(id)) throw invalidField([...path, i, 'id'], 'should be the id of a user of this workspace', people[i].id);
    if (!unique.includes(id)) unique.push(id);
  });
  return unique.map((id) => ({ object: 'user', id }));
}

async function normalizeRelation(ctx: ValueContext, property: Property, pages: { id: string }[], path: FieldPath) {
  const config = configOf<RelationConfig>(property);
  const ids = pages.map((p) => normalizeId(p.id)!);
  const found = await findPagesIn(ctx.db, ctx.workspaceId, config.data_source_id, ids);
  const unique: string[] = [];
  ids.forEach((id, i) => {
    if (!found.has(id)) throw invalidField([...path, i, 'id'], `should be the id of a page of the related data source ${config.data_source_id}`, pages[i].id);
    if (!unique.includes(id)) unique.push(id);
  });
  return unique.map((id) => ({ id }));
}

type FileInput =
  { name: string; external: { url: string } } | { name: string; file: { url: string; expiry_time?: string } } | { name?: string; file_upload: { id: string } };

function normalizeFiles(files: FileInput[], path: FieldPath) {
  return files.map((f, i) => {
    if ('external' in f) return { name: f.name, type: 'external', external: { url: f.external.url } };
    if ('file' in f) {
      // Hosted files are served through URLs that expire after an hour (FACTS.md §8).
      return { name: f.name, type: 'file', file: { url: f.file.url, expiry_time: new Date(Date.now() + 3600_000).toISOString() } };
    }
    throw invalidField([...path, i, 'file_upload'], 'should be not present: file uploads cannot be attached to files properties yet', f.file_upload);
  });
}

type VerificationInput = { state: 'verified'; date?: DateInput | null } | { state: 'unverified' };

function normalizeVerification(ctx: ValueContext, input: VerificationInput | null, path: FieldPath) {
  if (input === null || input.state === 'unverified') return { state: 'unverified', date: null, verified_by: null };
  const date = input.date ? checkDate(input.date, [...path, 'date']) : { start: new Date().toISOString(), end: null, time_zone: null };
  return { state: 'verified', date, verified_by: { object: 'user', id: ctx.actorId } };
}

/**
 * Validates one request value against its property's type and returns the stored value. A wrong
 * type or shape is a validation_error naming the property (`body.properties.<key>…`).
 */
export async function normalizeValue(ctx: ValueContext, property: Property, input: unknown, path: FieldPath): Promise<StoredValue> {
  const schema = propertyValueSchema(property.type);
  if (!schema || COMPUTED_TYPES.has(property.type)) {
    throw invalidField(path, `should be not present: ${property.name} is a ${property.type} property, which the server computes`, input);
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw invalidField(path, `should be an object with a ${property.type} member`, input);
  }
  const body = input as Record<string, unknown>;
  if (!(property.type in body)) {
    const given = Object.keys(body).find((k) => k !== 'type' && k !== 'id');
    if (given !== undefined)
      throw invalidField([...path, property.type], `should be defined: ${property.name} is a ${property.type} property, not ${given}`, undefined);
  }
  assertMatches(schema, input, path);
  if (property.type === 'multi_select' || property.type === 'people' || property.type === 'relation' || property.type === 'files') {
    const list = body[property.type] as unknown[];
    if (list.length > VALUE_LIMITS.listItems) throw invalidField([...path, property.type], `should have at most ${VALUE_LIMITS.listItems} items`, list.length);
  }
  const member = await normalizeMember(ctx, property, body[property.type], [...path, property.type]);
  return { type: property.type, [property.type]: member };
}
