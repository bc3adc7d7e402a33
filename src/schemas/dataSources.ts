import { Type, type Static } from 'typebox';
import { IdString, StrictObject } from './common.js';
import { RichTextRequestArray } from './richText.js';
import { IconRequest, PropertiesMap } from './pages.js';

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
