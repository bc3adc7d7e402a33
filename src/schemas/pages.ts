import { Type, type Static } from 'typebox';
import { IdString, PageSizeQuery, StrictObject } from './common.js';
import { BlockIconRequest, BlockRequestArray, ExternalFile, FileUploadRef } from './blocks.js';
import { CreatePageTemplate, UpdatePageTemplate } from './templates.js';
import { Closed, FileObject, Id, ListOf, Nullable, Parent, PartialUser, Timestamp, Unreadable } from './objectParts.js';

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

/**
 * The workspace as a parent: `{workspace: true}` as the SDK types it, or `{type: "workspace"}`
 * alone, as the service's published request schema (`parentRequest` in @notionhq/notion-mcp-server)
 * takes it; `type` names it without ambiguity (issue 26 item 7).
 */
export const WorkspaceParent = Type.Union([
  StrictObject({ type: Type.Optional(Type.Literal('workspace')), workspace: Type.Literal(true) }),
  StrictObject({ type: Type.Literal('workspace'), workspace: Type.Optional(Type.Literal(true)) }),
]);
export type WorkspaceParentInput = Static<typeof WorkspaceParent>;

export function isWorkspaceParent<T extends object>(parent: T | WorkspaceParentInput): parent is WorkspaceParentInput {
  return 'workspace' in parent || ('type' in parent && parent.type === 'workspace');
}

export const PageParent = Type.Union([
  StrictObject({ type: Type.Optional(Type.Literal('page_id')), page_id: IdString }),
  StrictObject({ type: Type.Optional(Type.Literal('database_id')), database_id: IdString }),
  // A parent read from a page carries database_id next to data_source_id; it may be sent back.
  StrictObject({
    type: Type.Optional(Type.Literal('data_source_id')),
    data_source_id: IdString,
    database_id: Type.Optional(Type.Union([IdString, Type.Null()])),
  }),
  ...WorkspaceParent.anyOf,
]);
export type PageParentInput = Static<typeof PageParent>;

export const CreatePageBody = StrictObject({
  parent: Type.Optional(PageParent),
  properties: Type.Optional(PropertiesMap),
  icon: Type.Optional(IconRequest),
  cover: Type.Optional(CoverRequest),
  children: Type.Optional(BlockRequestArray),
  content: Type.Optional(BlockRequestArray),
  /** The content as enhanced markdown (FACTS.md §10.1 1.2); not with `children` or `content`. */
  markdown: Type.Optional(Type.String()),
  /** Answer at once with an async task and create the page in the background (src/commands/asyncTasks/). */
  allow_async: Type.Optional(Type.Boolean()),
  template: Type.Optional(CreatePageTemplate),
});
export type CreatePageInput = Static<typeof CreatePageBody>;

export const UpdatePageBody = StrictObject({
  properties: Type.Optional(PropertiesMap),
  icon: Type.Optional(IconRequest),
  cover: Type.Optional(CoverRequest),
  in_trash: Type.Optional(Type.Boolean()),
  is_locked: Type.Optional(Type.Boolean()),
  is_archived: Type.Optional(Type.Boolean()),
  template: Type.Optional(UpdatePageTemplate),
  erase_content: Type.Optional(Type.Boolean()),
});
export type UpdatePageInput = Static<typeof UpdatePageBody>;

/** `POST /v1/pages/{id}/move` (SDK `MovePageBodyParameters`): a page or a data source, nothing else. */
export const MovePageBody = StrictObject({
  parent: Type.Union([
    StrictObject({ type: Type.Optional(Type.Literal('page_id')), page_id: IdString }),
    StrictObject({ type: Type.Optional(Type.Literal('data_source_id')), data_source_id: IdString }),
  ]),
});
export type MovePageInput = Static<typeof MovePageBody>;

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

// ---- Responses (newest version; see src/schemas/objectParts.ts) ----

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

const PropertyItem = Type.Object({ object: Type.Literal('property_item'), id: Type.String(), type: Type.String() }, { additionalProperties: true });

export const PageResponse = PageObject;
export const WrittenPageResponse = Type.Union([PageObject, Unreadable('page')]);
export const PropertyItemResponse = Type.Union([
  PropertyItem,
  ListOf('property_item', PropertyItem, {
    property_item: Type.Object({ id: Type.String(), next_url: Nullable(Type.String()), type: Type.String() }, { additionalProperties: true }),
  }),
]);
