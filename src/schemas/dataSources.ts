import { Type, type Static } from 'typebox';
import { IdString, StrictObject } from './common.js';
import { RichTextRequestArray } from './richText.js';
import { IconRequest, PropertiesMap } from './pages.js';
import { Closed, FileObject, Id, Nullable, Open, Parent, PartialUser, RichTextResponse, Timestamp, Unreadable } from './objectParts.js';

const DataSourceParent = StrictObject({ type: Type.Optional(Type.Literal('database_id')), database_id: IdString });

export const CreateDataSourceBody = StrictObject({
  parent: DataSourceParent,
  properties: PropertiesMap,
  title: Type.Optional(RichTextRequestArray),
  description: Type.Optional(RichTextRequestArray),
  icon: Type.Optional(IconRequest),
});
export type CreateDataSourceInput = Static<typeof CreateDataSourceBody>;

export const UpdateDataSourceBody = StrictObject({
  title: Type.Optional(RichTextRequestArray),
  description: Type.Optional(RichTextRequestArray),
  icon: Type.Optional(IconRequest),
  properties: Type.Optional(PropertiesMap),
  in_trash: Type.Optional(Type.Boolean()),
  parent: Type.Optional(DataSourceParent),
});
export type UpdateDataSourceInput = Static<typeof UpdateDataSourceBody>;

export const DataSourceParams = StrictObject({ data_source_id: Type.String({ maxLength: 200 }) });

// ---- Responses (newest version; see src/schemas/objectParts.ts) ----

/** A property of a data source schema: the member its type names holds the configuration. */
export const PropertySchemaResponse = Type.Object(
  { id: Type.String(), name: Type.String(), description: Nullable(Type.String()), type: Type.String() },
  { additionalProperties: Open },
);

export const DataSourceObject = Type.Object(
  {
    object: Type.Literal('data_source'),
    id: Id,
    created_time: Timestamp,
    last_edited_time: Timestamp,
    created_by: PartialUser,
    last_edited_by: PartialUser,
    title: RichTextResponse,
    description: RichTextResponse,
    icon: FileObject,
    cover: Type.Null(),
    parent: Type.Object({ type: Type.Literal('database_id'), database_id: Id }, Closed),
    database_parent: Nullable(Parent),
    is_inline: Type.Boolean(),
    in_trash: Type.Boolean(),
    properties: Type.Record(Type.String(), PropertySchemaResponse),
    url: Type.String(),
    public_url: Type.Null(),
  },
  Closed,
);

export const DataSourceResponse = DataSourceObject;
export const WrittenDataSourceResponse = Type.Union([DataSourceObject, Unreadable('data_source')]);
