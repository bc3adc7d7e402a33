import { Type, type Static } from 'typebox';
import { IdString, StrictObject } from './common.js';
import { RichTextRequestArray } from './richText.js';
import { CoverRequest, IconRequest, PropertiesMap, WorkspaceParent } from './pages.js';
import { Closed, FileObject, Id, Parent, RichTextResponse, Timestamp, Unreadable } from './objectParts.js';

export const DatabaseParent = Type.Union([StrictObject({ type: Type.Optional(Type.Literal('page_id')), page_id: IdString }), ...WorkspaceParent.anyOf]);
export type DatabaseParentInput = Static<typeof DatabaseParent>;

export const CreateDatabaseBody = StrictObject({
  parent: DatabaseParent,
  title: Type.Optional(RichTextRequestArray),
  description: Type.Optional(RichTextRequestArray),
  is_inline: Type.Optional(Type.Boolean()),
  initial_data_source: Type.Optional(StrictObject({ properties: Type.Optional(PropertiesMap) })),
  icon: Type.Optional(IconRequest),
  cover: Type.Optional(CoverRequest),
});
export type CreateDatabaseInput = Static<typeof CreateDatabaseBody>;

export const UpdateDatabaseBody = StrictObject({
  parent: Type.Optional(DatabaseParent),
  title: Type.Optional(RichTextRequestArray),
  description: Type.Optional(RichTextRequestArray),
  is_inline: Type.Optional(Type.Boolean()),
  icon: Type.Optional(IconRequest),
  cover: Type.Optional(CoverRequest),
  in_trash: Type.Optional(Type.Boolean()),
  is_locked: Type.Optional(Type.Boolean()),
  // The schema of a database with one data source, as versions before 2025-09-03 send it; it is
  // applied to that data source.
  properties: Type.Optional(PropertiesMap),
});
export type UpdateDatabaseInput = Static<typeof UpdateDatabaseBody>;

export const DatabaseParams = StrictObject({ database_id: Type.String({ maxLength: 200 }) });

// ---- Responses (newest version; see src/schemas/objectParts.ts) ----

export const DatabaseObject = Type.Object(
  {
    object: Type.Literal('database'),
    id: Id,
    title: RichTextResponse,
    description: RichTextResponse,
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

export const DatabaseResponse = DatabaseObject;
export const WrittenDatabaseResponse = Type.Union([DatabaseObject, Unreadable('database')]);
