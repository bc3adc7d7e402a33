import { Type, type Static } from 'typebox';
import { IdString, PageSizeQuery, StrictObject } from './common.js';
import { BlockIconRequest, BlockRequestArray, ExternalFile, FileUploadRef } from './blocks.js';

/** Page icons take the same shapes as block icons (SDK `PageIconRequest`). */
export const IconRequest = Type.Union([BlockIconRequest, Type.Null()]);
export const CoverRequest = Type.Union([
  StrictObject({ type: Type.Optional(Type.Literal('external')), external: ExternalFile }),
  StrictObject({ type: Type.Optional(Type.Literal('file_upload')), file_upload: FileUploadRef }),
  Type.Null(),
]);
export type IconInput = Static<typeof IconRequest>;
export type CoverInput = Static<typeof CoverRequest>;

/**
 * `properties` maps property names or ids to values (or, for schemas, configurations). The value
 * of each is checked against its property's type by the command, which names the failing field.
 */
export const PropertiesMap = Type.Record(Type.String({ maxLength: 1000 }), Type.Unknown(), { maxProperties: 500 });

export const PageParent = Type.Union([
  StrictObject({ type: Type.Optional(Type.Literal('page_id')), page_id: IdString }),
  StrictObject({ type: Type.Optional(Type.Literal('database_id')), database_id: IdString }),
  // A parent read from a page carries database_id next to data_source_id; it may be sent back.
  StrictObject({
    type: Type.Optional(Type.Literal('data_source_id')),
    data_source_id: IdString,
    database_id: Type.Optional(Type.Union([IdString, Type.Null()])),
  }),
  StrictObject({ type: Type.Optional(Type.Literal('workspace')), workspace: Type.Literal(true) }),
]);
export type PageParentInput = Static<typeof PageParent>;

export const CreatePageBody = StrictObject({
  parent: Type.Optional(PageParent),
  properties: Type.Optional(PropertiesMap),
  icon: Type.Optional(IconRequest),
  cover: Type.Optional(CoverRequest),
  children: Type.Optional(BlockRequestArray),
  content: Type.Optional(BlockRequestArray),
});
export type CreatePageInput = Static<typeof CreatePageBody>;

export const UpdatePageBody = StrictObject({
  properties: Type.Optional(PropertiesMap),
  icon: Type.Optional(IconRequest),
  cover: Type.Optional(CoverRequest),
  in_trash: Type.Optional(Type.Boolean()),
  is_locked: Type.Optional(Type.Boolean()),
  is_archived: Type.Optional(Type.Boolean()),
});
export type UpdatePageInput = Static<typeof UpdatePageBody>;

export const PageParams = StrictObject({ page_id: Type.String({ maxLength: 200 }) });
export const PagePropertyParams = StrictObject({ page_id: Type.String({ maxLength: 200 }), property_id: Type.String({ maxLength: 1000 }) });

/** `?filter_properties=a&filter_properties=b` (a single value is coerced to a list). */
export const FilterPropertiesQuery = StrictObject({
  filter_properties: Type.Optional(Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 100 })),
});

export const PropertyItemQuery = StrictObject({
  start_cursor: Type.Optional(Type.String({ maxLength: 2000 })),
  page_size: Type.Optional(PageSizeQuery),
});
