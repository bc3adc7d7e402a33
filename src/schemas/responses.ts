import { Type, type TSchema } from 'typebox';
import { MEETING_NOTES_STATUSES } from '../domain/meetingNotes/meetingNotesBlock.js';

/**
 * Newest-version response bodies, one per /v1 route (declared as `config.response` on the route,
 * where an OpenAPI generator finds them). They are not Fastify's `schema.response`, which would
 * serialise with fast-json-stringify and drop unknown fields; instead test runs check every 2xx
 * newest-version body against them (src/http/checkResponses.ts). Objects the spec lists field by
 * field refuse other fields; members named by a `type` (block content, property values and
 * configurations) and rich text are left open, as the spec lets them vary.
 */

const Closed = { additionalProperties: false } as const;
const Open = Type.Object({}, { additionalProperties: true });
const Id = Type.String();
const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const PartialUser = Type.Object({ object: Type.Literal('user'), id: Id }, Closed);

export const Parent = Type.Union([
  Type.Object({ type: Type.Literal('workspace'), workspace: Type.Literal(true) }, Closed),
  Type.Object({ type: Type.Literal('page_id'), page_id: Id }, Closed),
  Type.Object({ type: Type.Literal('block_id'), block_id: Id }, Closed),
  Type.Object({ type: Type.Literal('database_id'), database_id: Id }, Closed),
  Type.Object({ type: Type.Literal('data_source_id'), data_source_id: Id, database_id: Nullable(Id) }, Closed),
]);

const RichText = Type.Array(Open);
const FileObject = Nullable(Open);

/** `{object, id}`: a write answered to a connection that may write but not read (FACTS.md §2). */
const Unreadable = <T extends string>(object: T) => Type.Object({ object: Type.Literal(object), id: Id }, Closed);

/** A property value on a page: its id and type, and the member the type names. */
const PropertyValue = Type.Object({ id: Type.String(), type: Type.String() }, { additionalProperties: true });

export const PageObject = Type.Object(
  {
    object: Type.Literal('page'),
    id: Id,
    created_time: Timestamp,
    last_edited_time: Timestamp,
    created_by: PartialUser,
    last_edited_by: PartialUser,
    cover: FileObject,
    icon: FileObject,
    parent: Parent,
    in_trash: Type.Boolean(),
    is_archived: Type.Boolean(),
    is_locked: Type.Boolean(),
    properties: Type.Record(Type.String(), PropertyValue),
    url: Type.String(),
    public_url: Type.Null(),
  },
  Closed,
);

/** What every block shows about itself (FACTS.md §9 "Block (common)"), parent aside. */
const BlockStamps = {
  created_time: Timestamp,
  last_edited_time: Timestamp,
  created_by: PartialUser,
  last_edited_by: PartialUser,
  has_children: Type.Boolean(),
  in_trash: Type.Boolean(),
};

/** A block: the common fields (FACTS.md §9 "Block (common)") and the member its type names. */
export const BlockObject = Type.Object(
  {
    object: Type.Literal('block'),
    id: Id,
    parent: Parent,
    ...BlockStamps,
    type: Type.String(),
  },
  { additionalProperties: Open },
);

/** A property of a data source schema: the member its type names holds the configuration. */
const PropertySchema = Type.Object(
  { id: Type.String(), name: Type.String(), description: Nullable(Type.String()), type: Type.String() },
  { additionalProperties: Open },
);

export const DatabaseObject = Type.Object(
  {
    object: Type.Literal('database'),
    id: Id,
    title: RichText,
    description: RichText,
    parent: Parent,
    is_inline: Type.Boolean(),
    in_trash: Type.Boolean(),
    is_locked: Type.Boolean(),
    created_time: Timestamp,
    last_edited_time: Timestamp,
    data_sources: Type.Array(Type.Object({ id: Id, name: Type.String() }, Closed)),
    icon: FileObject,
    cover: FileObject,
    url: Type.String(),
    public_url: Type.Null(),
  },
  Closed,
);

export const DataSourceObject = Type.Object(
  {
    object: Type.Literal('data_source'),
    id: Id,
    created_time: Timestamp,
    last_edited_time: Timestamp,
    created_by: PartialUser,
    last_edited_by: PartialUser,
    title: RichText,
    description: RichText,
    icon: FileObject,
    cover: Type.Null(),
    parent: Type.Object({ type: Type.Literal('database_id'), database_id: Id }, Closed),
    database_parent: Nullable(Parent),
    is_inline: Type.Boolean(),
    in_trash: Type.Boolean(),
    properties: Type.Record(Type.String(), PropertySchema),
    url: Type.String(),
    public_url: Type.Null(),
  },
  Closed,
);

const UserBase = { object: Type.Literal('user'), id: Id, name: Nullable(Type.String()), avatar_url: Nullable(Type.String()) };

/** A user (spec "User object"): e-mail only with user_info_with_email; bot details only for the caller's own bot. */
export const UserObject = Type.Union([
  Type.Object(
    {
      ...UserBase,
      type: Type.Literal('person'),
      person: Type.Union([Type.Object({ email: Type.String(), email_verified: Type.Boolean() }, Closed), Type.Object({}, Closed)]),
    },
    Closed,
  ),
  Type.Object(
    {
      ...UserBase,
      type: Type.Literal('bot'),
      bot: Type.Union([
        Type.Object({}, Closed),
        Type.Object(
          {
            owner: Type.Union([
              Type.Object({ type: Type.Literal('workspace'), workspace: Type.Literal(true) }, Closed),
              Type.Object({ type: Type.Literal('user'), user: Open }, Closed),
            ]),
            workspace_id: Id,
            workspace_name: Nullable(Type.String()),
            workspace_limits: Type.Object({ max_file_upload_size_in_bytes: Type.Integer() }, Closed),
          },
          Closed,
        ),
      ]),
    },
    Closed,
  ),
]);

/** The list envelope of FACTS.md §3; `type` names a member, and some lists carry more (search's request_status). */
const ListOf = <T extends TSchema>(type: string, item: T, extra: Record<string, TSchema> = {}) =>
  Type.Object(
    {
      object: Type.Literal('list'),
      results: Type.Array(item),
      next_cursor: Nullable(Type.String()),
      has_more: Type.Boolean(),
      type: Type.Literal(type),
      [type]: Open,
      ...extra,
    },
    Closed,
  );

const PropertyItem = Type.Object({ object: Type.Literal('property_item'), id: Type.String(), type: Type.String() }, { additionalProperties: true });

export const PageResponse = PageObject;
export const WrittenPageResponse = Type.Union([PageObject, Unreadable('page')]);
export const PropertyItemResponse = Type.Union([
  PropertyItem,
  ListOf('property_item', PropertyItem, {
    property_item: Type.Object({ id: Type.String(), next_url: Nullable(Type.String()), type: Type.String() }, { additionalProperties: true }),
  }),
]);
export const BlockResponse = BlockObject;
export const WrittenBlockResponse = Type.Union([BlockObject, Unreadable('block')]);
export const BlockListResponse = ListOf('block', Type.Union([BlockObject, Unreadable('block')]));
/** The meeting notes block (spec, "Meeting notes block (full response)"): exactly these fields, no parent. */
const MeetingNotesBlock = Type.Object(
  {
    object: Type.Literal('block'),
    id: Id,
    type: Type.Literal('meeting_notes'),
    meeting_notes: Type.Object(
      {
        title: Type.Optional(Type.Array(Open, { maxItems: 100 })),
        status: Type.Optional(Type.Union(MEETING_NOTES_STATUSES.map((s) => Type.Literal(s)))),
        children: Type.Optional(
          Type.Object({ summary_block_id: Type.Optional(Id), notes_block_id: Type.Optional(Id), transcript_block_id: Type.Optional(Id) }, Closed),
        ),
        calendar_event: Type.Optional(
          Type.Object({ start_time: Type.String(), end_time: Type.String(), attendees: Type.Optional(Type.Array(Id, { maxItems: 100 })) }, Closed),
        ),
        recording: Type.Optional(Type.Object({ start_time: Type.Optional(Type.String()), end_time: Type.Optional(Type.String()) }, Closed)),
      },
      Closed,
    ),
    ...BlockStamps,
  },
  Closed,
);
/** With read content the full block, else only `{object, id}` (spec, "POST /v1/blocks/meeting_notes"). */
export const MeetingNoteCreatedResponse = Type.Union([MeetingNotesBlock, Unreadable('block')]);
export const DatabaseResponse = DatabaseObject;
export const WrittenDatabaseResponse = Type.Union([DatabaseObject, Unreadable('database')]);
export const DataSourceResponse = DataSourceObject;
export const WrittenDataSourceResponse = Type.Union([DataSourceObject, Unreadable('data_source')]);
export const SearchResponse = ListOf('page_or_data_source', Type.Union([PageObject, DataSourceObject]), {
  request_status: Type.Object({ type: Type.Literal('complete') }, Closed),
});
export const QueryResponse = ListOf('page_or_data_source', PageObject, {
  request_status: Type.Union([
    Type.Object({ type: Type.Literal('complete') }, Closed),
    Type.Object({ type: Type.Literal('incomplete'), incomplete_reason: Type.Literal('query_result_limit_reached') }, Closed),
  ]),
});
export const UserResponse = UserObject;
export const UserListResponse = ListOf('user', UserObject);

/** SDK `FileUploadObjectResponse`; `archived` only before 2026-03-11 (the archived change adds it). */
export const FileUploadObject = Type.Object(
  {
    object: Type.Literal('file_upload'),
    id: Id,
    created_time: Timestamp,
    created_by: Type.Object({ id: Id, type: Type.Literal('bot') }, Closed),
    last_edited_time: Timestamp,
    in_trash: Type.Boolean(),
    expiry_time: Nullable(Timestamp),
    status: Type.Union([Type.Literal('pending'), Type.Literal('uploaded'), Type.Literal('expired'), Type.Literal('failed')]),
    filename: Nullable(Type.String()),
    content_type: Nullable(Type.String()),
    content_length: Nullable(Type.Integer({ minimum: 0 })),
    upload_url: Type.Optional(Type.String()),
    complete_url: Type.Optional(Type.String()),
    file_import_result: Type.Optional(
      Type.Object(
        {
          imported_time: Timestamp,
          type: Type.Union([Type.Literal('success'), Type.Literal('error')]),
          success: Type.Optional(Type.Object({}, Closed)),
          error: Type.Optional(
            Type.Object(
              {
                type: Type.Union([
                  Type.Literal('validation_error'),
                  Type.Literal('internal_system_error'),
                  Type.Literal('download_error'),
                  Type.Literal('upload_error'),
                ]),
                code: Type.String(),
                message: Type.String(),
                parameter: Nullable(Type.String()),
                status_code: Nullable(Type.Integer()),
              },
              Closed,
            ),
          ),
        },
        Closed,
      ),
    ),
    number_of_parts: Type.Optional(Type.Object({ total: Type.Integer({ minimum: 1 }), sent: Type.Integer({ minimum: 0 }) }, Closed)),
  },
  Closed,
);
export const FileUploadListResponse = ListOf('file_upload', FileUploadObject);
