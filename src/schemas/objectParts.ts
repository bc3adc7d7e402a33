import { Type, type TArray, type TBoolean, type TLiteral, type TNull, type TObject, type TProperties, type TSchema, type TString, type TUnion } from 'typebox';

/**
 * The parts the newest-version response schemas share (one file per resource holds its request and
 * response schemas side by side: src/schemas/<resource>.ts). Responses are declared on a route as
 * `config.response`, where an OpenAPI generator finds them. They are not Fastify's
 * `schema.response`, which would serialise with fast-json-stringify and drop unknown fields;
 * instead test runs check every 2xx newest-version body against them (src/http/checkResponses.ts),
 * and the presenters return their `Static<>` types. Objects the spec lists field by field refuse
 * other fields; members named by a `type` (block content, property values and configurations) and
 * rich text are left open, as the spec lets them vary.
 */

export const Closed = { additionalProperties: false } as const;
export const Open = Type.Object({}, { additionalProperties: true });
export const Id = Type.String();
export const Timestamp = Type.String({ format: 'date-time' });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const PartialUser = Type.Object({ object: Type.Literal('user'), id: Id }, Closed);

export const Parent = Type.Union([
  Type.Object({ type: Type.Literal('workspace'), workspace: Type.Literal(true) }, Closed),
  Type.Object({ type: Type.Literal('page_id'), page_id: Id }, Closed),
  Type.Object({ type: Type.Literal('block_id'), block_id: Id }, Closed),
  Type.Object({ type: Type.Literal('database_id'), database_id: Id }, Closed),
  Type.Object({ type: Type.Literal('data_source_id'), data_source_id: Id, database_id: Nullable(Id) }, Closed),
]);

export const RichTextResponse = Type.Array(Open);
export const FileObject = Nullable(Open);

/** `{object, id}`: a write answered to a connection that may write but not read (FACTS.md §2). */
export const Unreadable = <T extends string>(object: T): TObject<{ object: TLiteral<T>; id: TString }> =>
  Type.Object({ object: Type.Literal(object), id: Id }, Closed);

/** What every block shows about itself (FACTS.md §9 "Block (common)"), parent aside. */
export const BlockStamps = {
  created_time: Timestamp,
  last_edited_time: Timestamp,
  created_by: PartialUser,
  last_edited_by: PartialUser,
  has_children: Type.Boolean(),
  in_trash: Type.Boolean(),
};

/** The members of a list envelope: `type` names a member holding an empty object; `extra` adds members or replaces it. */
type ListMembers<T extends TSchema, K extends string, E extends TProperties> = Flat<
  Omit<
    {
      object: TLiteral<'list'>;
      results: TArray<T>;
      next_cursor: TUnion<[TString, TNull]>;
      has_more: TBoolean;
      type: TLiteral<K>;
    } & { [P in K]: typeof Open },
    keyof E
  > &
    E
>;
type Flat<T> = { [P in keyof T]: T[P] };

/** The list envelope of FACTS.md §3; `type` names a member, and some lists carry more (search's request_status). */
export const ListOf = <T extends TSchema, K extends string, E extends TProperties = Record<never, TSchema>>(type: K, item: T, extra?: E) =>
  Type.Object(
    {
      object: Type.Literal('list'),
      results: Type.Array(item),
      next_cursor: Nullable(Type.String()),
      has_more: Type.Boolean(),
      type: Type.Literal(type),
      [type]: Open,
      ...extra,
    } as unknown as ListMembers<T, K, E>,
    Closed,
  );
