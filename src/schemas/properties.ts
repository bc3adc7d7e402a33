import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Type, type TSchema } from 'typebox';
import { IdString, StrictObject } from './common.js';
import { DateRequest, RichTextRequestArray } from './richText.js';
import { validationFailureOf } from '../errors/validationMessage.js';
import type { FieldPath } from '../errors/validationFailure.js';
import { ROLLUP_FUNCTIONS } from './rollupFunctions.js';
import { NUMBER_FORMATS, SELECT_COLORS, STATUS_GROUPS, VALUE_LIMITS, type PropertyType } from './propertyTypes.js';

/**
 * Property schemas and values are validated in two steps: the route schema only says "an object
 * per property", then the command picks the schema for the property's type and validates against
 * it here, so a failure names the exact field (`body.properties.Price.number.format …`) instead of
 * the closest branch of a 22-way union.
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: false, verbose: true, strict: false, coerceTypes: false, useDefaults: false, removeAdditional: false }));
const compiled = new WeakMap<TSchema, ValidateFunction>();

/** Validates `value` (found at `path` in the body) against `schema`, or throws validation_error naming the field. */
export function assertMatches(schema: TSchema, value: unknown, path: FieldPath): void {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema as object);
    compiled.set(schema, validate);
  }
  if (validate(value)) return;
  const failure = validationFailureOf('body', validate.errors ?? []);
  throw failure.at([...path, ...failure.path]);
}

const Empty = StrictObject({});
const OptionName = Type.String({ minLength: 1, maxLength: VALUE_LIMITS.optionName });
const SelectColor = Type.Union(SELECT_COLORS.map((c) => Type.Literal(c)));
const Description = Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]);
const StatusGroup = Type.Union(STATUS_GROUPS.map((g) => Type.Literal(g.name)));

const OptionRequest = StrictObject({
  id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  name: Type.Optional(OptionName),
  color: Type.Optional(SelectColor),
  description: Type.Optional(Description),
});
const StatusOptionRequest = StrictObject({
  id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  name: Type.Optional(OptionName),
  color: Type.Optional(SelectColor),
  description: Type.Optional(Description),
  group: Type.Optional(StatusGroup),
});
const Options = (item: TSchema) => StrictObject({ options: Type.Optional(Type.Array(item, { maxItems: VALUE_LIMITS.listItems })) });
const PropertyRef = Type.String({ minLength: 1, maxLength: 200 });

/** The type member of a property configuration request (SDK `PropertyConfigurationRequest`). */
export const CONFIG_MEMBER_SCHEMAS: Record<PropertyType, TSchema> = {
  title: Empty,
  rich_text: Empty,
  number: StrictObject({ format: Type.Optional(Type.Union(NUMBER_FORMATS.map((f) => Type.Literal(f)))) }),
  select: Options(OptionRequest),
  multi_select: Options(OptionRequest),
  status: Options(StatusOptionRequest),
  date: Empty,
  people: Empty,
  files: Empty,
  checkbox: Empty,
  url: Empty,
  email: Empty,
  phone_number: Empty,
  formula: StrictObject({ expression: Type.Optional(Type.String({ maxLength: 10_000 })) }),
  relation: StrictObject({
    data_source_id: Type.Optional(IdString),
    // Accepted so requests of versions before data sources (and callers that only know the
    // database) can name the database; it stands for the database's first data source.
    database_id: Type.Optional(IdString),
    type: Type.Optional(Type.Union([Type.Literal('single_property'), Type.Literal('dual_property')])),
    single_property: Type.Optional(Empty),
    dual_property: Type.Optional(
      StrictObject({ synced_property_id: Type.Optional(Type.String({ maxLength: 200 })), synced_property_name: Type.Optional(PropertyRef) }),
    ),
  }),
  rollup: StrictObject({
    function: Type.Union(ROLLUP_FUNCTIONS.map((f) => Type.Literal(f))),
    relation_property_name: Type.Optional(PropertyRef),
    relation_property_id: Type.Optional(PropertyRef),
    rollup_property_name: Type.Optional(PropertyRef),
    rollup_property_id: Type.Optional(PropertyRef),
  }),
  created_time: Empty,
  created_by: Empty,
  last_edited_time: Empty,
  last_edited_by: Empty,
  unique_id: StrictObject({ prefix: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 30, pattern: '^[^\\s]+$' }), Type.Null()])) }),
  verification: Empty,
};

const configSchemas = new Map<PropertyType, TSchema>();

/** The whole configuration object of one property: `{type?, name?, description?, <type>: config}`. */
export function propertyConfigSchema(type: PropertyType): TSchema {
  let schema = configSchemas.get(type);
  if (!schema) {
    schema = StrictObject({
      type: Type.Optional(Type.Literal(type)),
      name: Type.Optional(PropertyRef),
      description: Type.Optional(Description),
      [type]: CONFIG_MEMBER_SCHEMAS[type],
    });
    configSchemas.set(type, schema);
  }
  return schema;
}

/** A PATCH that only renames or re-describes: `{name?, description?}`. */
export const PropertyRenameRequest = StrictObject({ name: Type.Optional(PropertyRef), description: Type.Optional(Description) });

const NullableString = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()]);
const SelectValueRequest = StrictObject({
  id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  name: Type.Optional(OptionName),
  color: Type.Optional(SelectColor),
  description: Type.Optional(Description),
});
const UserValueRequest = Type.Object(
  {
    id: IdString,
    object: Type.Optional(Type.Literal('user')),
    // A user object read from a page may be sent back as it is; only the id counts.
    name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    avatar_url: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    type: Type.Optional(Type.Union([Type.Literal('person'), Type.Literal('bot')])),
    person: Type.Optional(Type.Object({})),
    bot: Type.Optional(Type.Object({})),
  },
  { additionalProperties: false },
);
const FileName = Type.String({ minLength: 1, maxLength: 900 });
const FileUrl = Type.String({ minLength: 1, maxLength: VALUE_LIMITS.url });
const FileValueRequest = Type.Union([
  StrictObject({ type: Type.Optional(Type.Literal('external')), name: FileName, external: StrictObject({ url: FileUrl }) }),
  // Without a name, a hosted file is named after its upload's file (an attached upload arrives so).
  StrictObject({
    type: Type.Optional(Type.Literal('file')),
    name: Type.Optional(FileName),
    file: StrictObject({ url: FileUrl, expiry_time: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])) }),
  }),
  StrictObject({ type: Type.Optional(Type.Literal('file_upload')), name: Type.Optional(FileName), file_upload: StrictObject({ id: IdString }) }),
]);
const VerificationRequest = Type.Union([
  StrictObject({ state: Type.Literal('verified'), date: Type.Optional(Type.Union([DateRequest, Type.Null()])) }),
  StrictObject({ state: Type.Literal('unverified') }),
]);
const List = (item: TSchema) => Type.Array(item, { maxItems: VALUE_LIMITS.listItems });

/** The value member of a page property request, per writable type (SDK `CreatePageBodyParameters`). */
const VALUE_MEMBER_SCHEMAS: Partial<Record<PropertyType, TSchema>> = {
  title: RichTextRequestArray,
  rich_text: RichTextRequestArray,
  number: Type.Union([Type.Number(), Type.Null()]),
  url: NullableString(VALUE_LIMITS.url),
  email: NullableString(VALUE_LIMITS.email),
  phone_number: NullableString(VALUE_LIMITS.phone_number),
  checkbox: Type.Boolean(),
  select: Type.Union([SelectValueRequest, Type.Null()]),
  status: Type.Union([SelectValueRequest, Type.Null()]),
  multi_select: List(SelectValueRequest),
  date: Type.Union([DateRequest, Type.Null()]),
  people: List(UserValueRequest),
  relation: List(StrictObject({ id: IdString })),
  files: List(FileValueRequest),
  verification: Type.Union([VerificationRequest, Type.Null()]),
};

const valueSchemas = new Map<PropertyType, TSchema>();

/** `{type?, id?, <type>: value}`; null for computed types, which cannot be written. */
export function propertyValueSchema(type: PropertyType): TSchema | null {
  const member = VALUE_MEMBER_SCHEMAS[type];
  if (!member) return null;
  let schema = valueSchemas.get(type);
  if (!schema) {
    // `id` is allowed because a value read from a page may be sent back unchanged.
    schema = StrictObject({ type: Type.Optional(Type.Literal(type)), id: Type.Optional(Type.String({ maxLength: 200 })), [type]: member });
    valueSchemas.set(type, schema);
  }
  return schema;
}
