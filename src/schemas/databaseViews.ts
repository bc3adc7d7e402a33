import { Type, type Static, type TSchema } from 'typebox';
import { IdString, PageSizeQuery, StrictObject } from './common.js';
import { Closed, Id, ListOf, Nullable, Open, PartialUser, Timestamp } from './objectParts.js';

/**
 * Database views and view queries (FACTS.md §10.8; SDK `api-endpoints/views.d.ts`, the view
 * types in `common.d.ts`). Called "database views" in code because `src/domain/views.ts` already
 * names the read models commands return.
 */

export const VIEW_TYPES = ['table', 'board', 'list', 'calendar', 'timeline', 'gallery', 'form', 'chart', 'map', 'dashboard'] as const;
export type ViewType = (typeof VIEW_TYPES)[number];

const literals = <const T extends string>(values: readonly T[]) => Type.Enum(values as T[]);
const OrNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const PropertyRef = Type.String({ minLength: 1, maxLength: 200 });

// ---- Configuration per type (FACTS.md §10.8 8.3; SDK `ViewConfigRequest`) ----

const GroupSort = StrictObject({ type: literals(['manual', 'ascending', 'descending']) });
const groupCommon = { property_id: PropertyRef, sort: GroupSort, hide_empty_groups: Type.Optional(Type.Boolean()) };
const DATE_GROUPING = literals(['relative', 'day', 'week', 'month', 'year']);
const StartDay = Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)]));
const NumberRange = {
  range_start: Type.Optional(Type.Number()),
  range_end: Type.Optional(Type.Number()),
  range_size: Type.Optional(Type.Number({ minimum: 1 })),
};

const FormulaSubGroupBy = Type.Union([
  StrictObject({ type: Type.Literal('date'), group_by: DATE_GROUPING, sort: GroupSort, start_day_of_week: StartDay }),
  StrictObject({ type: Type.Literal('text'), group_by: literals(['exact', 'alphabet_prefix']), sort: GroupSort }),
  StrictObject({ type: Type.Literal('number'), sort: GroupSort, ...NumberRange }),
  StrictObject({ type: Type.Literal('checkbox'), sort: GroupSort }),
]);

export const GroupByConfig = Type.Union([
  StrictObject({ type: literals(['select', 'multi_select']), ...groupCommon }),
  StrictObject({ type: Type.Literal('status'), group_by: literals(['group', 'option']), ...groupCommon }),
  StrictObject({ type: literals(['person', 'created_by', 'last_edited_by']), ...groupCommon }),
  StrictObject({ type: Type.Literal('relation'), ...groupCommon }),
  StrictObject({ type: literals(['date', 'created_time', 'last_edited_time']), group_by: DATE_GROUPING, start_day_of_week: StartDay, ...groupCommon }),
  StrictObject({ type: literals(['text', 'title', 'url', 'email', 'phone_number']), group_by: literals(['exact', 'alphabet_prefix']), ...groupCommon }),
  StrictObject({ type: Type.Literal('number'), ...groupCommon, ...NumberRange }),
  StrictObject({ type: Type.Literal('checkbox'), ...groupCommon }),
  StrictObject({
    type: Type.Literal('formula'),
    property_id: PropertyRef,
    group_by: FormulaSubGroupBy,
    hide_empty_groups: Type.Optional(Type.Boolean()),
  }),
]);

const ViewPropertyConfig = StrictObject({
  property_id: PropertyRef,
  visible: Type.Optional(Type.Boolean()),
  width: Type.Optional(Type.Integer({ minimum: 0 })),
  wrap: Type.Optional(Type.Boolean()),
  status_show_as: Type.Optional(literals(['select', 'checkbox'])),
  card_property_width_mode: Type.Optional(literals(['full_line', 'inline'])),
  date_format: Type.Optional(literals(['full', 'short', 'month_day_year', 'day_month_year', 'year_month_day', 'relative'])),
  time_format: Type.Optional(literals(['12_hour', '24_hour', 'hidden'])),
});
const Properties = Type.Optional(OrNull(Type.Array(ViewPropertyConfig, { maxItems: 500 })));
const Cover = StrictObject({ type: literals(['page_cover', 'page_content', 'property']), property_id: Type.Optional(PropertyRef) });
const cardLayout = {
  cover: Type.Optional(OrNull(Cover)),
  cover_size: Type.Optional(OrNull(literals(['small', 'medium', 'large']))),
  cover_aspect: Type.Optional(OrNull(literals(['contain', 'cover']))),
  card_layout: Type.Optional(OrNull(literals(['list', 'compact']))),
};
const Aggregation = StrictObject({
  aggregator: literals([
    'count',
    'count_values',
    'sum',
    'average',
    'median',
    'min',
    'max',
    'range',
    'unique',
    'empty',
    'not_empty',
    'percent_empty',
    'percent_not_empty',
    'checked',
    'unchecked',
    'percent_checked',
    'percent_unchecked',
    'earliest_date',
    'latest_date',
    'date_range',
  ]),
  property_id: Type.Optional(PropertyRef),
});
const COLORS = ['gray', 'lightgray', 'brown', 'yellow', 'orange', 'green', 'blue', 'purple', 'pink', 'red'] as const;
const ReferenceLine = StrictObject({
  id: Type.Optional(Type.String({ maxLength: 100 })),
  value: Type.Number(),
  label: Type.String({ maxLength: 2000 }),
  color: literals(COLORS),
  dash_style: literals(['solid', 'dash']),
});
const opt = <T extends TSchema>(schema: T) => Type.Optional(OrNull(schema));

/** The configuration a request may set, per view type; dashboard's is read-only (SDK `ViewConfigRequest` excludes it). */
export const VIEW_CONFIG_SCHEMAS = {
  table: StrictObject({
    type: Type.Literal('table'),
    properties: Properties,
    group_by: opt(GroupByConfig),
    subtasks: opt(
      StrictObject({
        property_id: Type.Optional(PropertyRef),
        display_mode: Type.Optional(literals(['show', 'hidden', 'flattened', 'disabled'])),
        filter_scope: Type.Optional(literals(['parents', 'parents_and_subitems', 'subitems'])),
        toggle_column_id: Type.Optional(Type.String({ maxLength: 200 })),
      }),
    ),
    wrap_cells: Type.Optional(Type.Boolean()),
    frozen_column_index: Type.Optional(Type.Integer({ minimum: 0 })),
    show_vertical_lines: Type.Optional(Type.Boolean()),
  }),
  board: StrictObject({ type: Type.Literal('board'), group_by: GroupByConfig, sub_group_by: opt(GroupByConfig), properties: Properties, ...cardLayout }),
  calendar: StrictObject({
    type: Type.Literal('calendar'),
    date_property_id: PropertyRef,
    properties: Properties,
    view_range: opt(literals(['week', 'month'])),
    show_weekends: opt(Type.Boolean()),
  }),
  timeline: StrictObject({
    type: Type.Literal('timeline'),
    date_property_id: PropertyRef,
    end_date_property_id: opt(PropertyRef),
    properties: Properties,
    show_table: opt(Type.Boolean()),
    table_properties: Properties,
    preference: opt(
      StrictObject({
        zoom_level: literals(['hours', 'day', 'week', 'bi_week', 'month', 'quarter', 'year', '5_years']),
        center_timestamp: Type.Optional(Type.Number()),
      }),
    ),
    arrows_by: opt(StrictObject({ property_id: Type.Optional(OrNull(PropertyRef)) })),
    color_by: opt(Type.Boolean()),
  }),
  gallery: StrictObject({ type: Type.Literal('gallery'), properties: Properties, ...cardLayout }),
  list: StrictObject({ type: Type.Literal('list'), properties: Properties }),
  map: StrictObject({
    type: Type.Literal('map'),
    height: opt(literals(['small', 'medium', 'large', 'extra_large'])),
    map_by: opt(PropertyRef),
    properties: Properties,
  }),
  form: StrictObject({
    type: Type.Literal('form'),
    is_form_closed: opt(Type.Boolean()),
    anonymous_submissions: opt(Type.Boolean()),
    submission_permissions: opt(literals(['none', 'comment_only', 'reader', 'read_and_write', 'editor'])),
  }),
  chart: StrictObject({
    type: Type.Literal('chart'),
    chart_type: literals(['column', 'bar', 'line', 'donut', 'number']),
    x_axis: opt(GroupByConfig),
    y_axis: opt(Aggregation),
    x_axis_property_id: opt(PropertyRef),
    y_axis_property_id: opt(PropertyRef),
    value: opt(Aggregation),
    sort: opt(literals(['manual', 'x_ascending', 'x_descending', 'y_ascending', 'y_descending'])),
    color_theme: opt(literals(['gray', 'blue', 'yellow', 'green', 'purple', 'teal', 'orange', 'pink', 'red', 'auto', 'colorful'])),
    height: opt(literals(['small', 'medium', 'large', 'extra_large'])),
    hide_empty_groups: opt(Type.Boolean()),
    legend_position: opt(literals(['off', 'bottom', 'side'])),
    show_data_labels: opt(Type.Boolean()),
    axis_labels: opt(literals(['none', 'x_axis', 'y_axis', 'both'])),
    grid_lines: opt(literals(['none', 'horizontal', 'vertical', 'both'])),
    cumulative: opt(Type.Boolean()),
    smooth_line: opt(Type.Boolean()),
    hide_line_fill_area: opt(Type.Boolean()),
    group_style: opt(literals(['normal', 'percent', 'side_by_side'])),
    y_axis_min: opt(Type.Number()),
    y_axis_max: opt(Type.Number()),
    donut_labels: opt(literals(['none', 'value', 'name', 'name_and_value'])),
    hide_title: opt(Type.Boolean()),
    stack_by: opt(GroupByConfig),
    reference_lines: opt(Type.Array(ReferenceLine, { maxItems: 100 })),
    caption: opt(Type.String({ maxLength: 2000 })),
    color_by_value: opt(Type.Boolean()),
  }),
} satisfies Record<Exclude<ViewType, 'dashboard'>, TSchema>;

export type ViewConfigInput = Static<(typeof VIEW_CONFIG_SCHEMAS)[keyof typeof VIEW_CONFIG_SCHEMAS]>;

// ---- Requests ----

/**
 * `filter`, `sorts`, `quick_filters` and `configuration` are only "an object" here: the command
 * checks the filter and sorts with the data-source query's own checks (src/domain/query/) and the
 * configuration with its type's schema above, so a failure names the exact field instead of the
 * nearest branch of a union.
 */
const QuickFilters = Type.Record(Type.String({ minLength: 1, maxLength: 200 }), Type.Unknown());

export const CreateViewBody = StrictObject({
  data_source_id: IdString,
  name: Type.String({ maxLength: 2000 }),
  type: literals(VIEW_TYPES),
  database_id: Type.Optional(IdString),
  view_id: Type.Optional(IdString),
  create_database: Type.Optional(
    StrictObject({
      parent: StrictObject({ type: Type.Optional(Type.Literal('page_id')), page_id: IdString }),
      position: Type.Optional(StrictObject({ type: Type.Literal('after_block'), block_id: IdString })),
    }),
  ),
  filter: Type.Optional(Type.Object({}, { additionalProperties: true })),
  sorts: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 100 })),
  quick_filters: Type.Optional(QuickFilters),
  configuration: Type.Optional(Type.Object({ type: Type.String() }, { additionalProperties: true })),
  position: Type.Optional(
    Type.Union([
      StrictObject({ type: Type.Literal('start') }),
      StrictObject({ type: Type.Literal('end') }),
      StrictObject({ type: Type.Literal('after_view'), view_id: IdString }),
    ]),
  ),
  placement: Type.Optional(
    Type.Union([
      StrictObject({ type: Type.Literal('new_row'), row_index: Type.Optional(Type.Integer({ minimum: 0 })) }),
      StrictObject({ type: Type.Literal('existing_row'), row_index: Type.Integer({ minimum: 0 }) }),
    ]),
  ),
});
export type CreateViewInput = Static<typeof CreateViewBody>;

export const UpdateViewBody = StrictObject({
  name: Type.Optional(Type.String({ maxLength: 2000 })),
  filter: Type.Optional(OrNull(Type.Object({}, { additionalProperties: true }))),
  sorts: Type.Optional(OrNull(Type.Array(Type.Unknown(), { maxItems: 100 }))),
  quick_filters: Type.Optional(OrNull(QuickFilters)),
  configuration: Type.Optional(Type.Object({ type: Type.String() }, { additionalProperties: true })),
});
export type UpdateViewInput = Static<typeof UpdateViewBody>;

export const ViewParams = StrictObject({ view_id: Type.String({ maxLength: 200 }) });
export const ViewQueryParams = StrictObject({ view_id: Type.String({ maxLength: 200 }), query_id: Type.String({ maxLength: 200 }) });

export const ListViewsQuery = StrictObject({
  database_id: Type.Optional(Type.String({ maxLength: 200 })),
  data_source_id: Type.Optional(Type.String({ maxLength: 200 })),
  start_cursor: Type.Optional(Type.String({ maxLength: 2000 })),
  page_size: Type.Optional(PageSizeQuery),
});
export type ListViewsInput = Static<typeof ListViewsQuery>;

export const CreateViewQueryBody = StrictObject({ page_size: Type.Optional(PageSizeQuery) });
export const ViewQueryResultsQuery = StrictObject({
  start_cursor: Type.Optional(Type.String({ maxLength: 2000 })),
  page_size: Type.Optional(PageSizeQuery),
});

// ---- Responses (newest version; see src/schemas/objectParts.ts) ----

const ViewTypeLiteral = literals(VIEW_TYPES);
const DatabaseParentObject = Type.Object({ type: Type.Literal('database_id'), database_id: Id }, Closed);

export const ViewObject = Type.Object(
  {
    object: Type.Literal('view'),
    id: Id,
    parent: DatabaseParentObject,
    name: Type.String(),
    type: ViewTypeLiteral,
    created_time: Timestamp,
    last_edited_time: Timestamp,
    url: Type.String(),
    data_source_id: Nullable(Id),
    created_by: PartialUser,
    last_edited_by: PartialUser,
    filter: Nullable(Open),
    sorts: Nullable(Type.Array(Open)),
    quick_filters: Nullable(Type.Record(Type.String(), Open)),
    // Configurations vary by type and carry names the server adds (`property_name`): left open.
    configuration: Nullable(Open),
    dashboard_view_id: Type.Optional(Id),
  },
  Closed,
);
export const PartialViewObject = Type.Object({ object: Type.Literal('view'), id: Id, parent: DatabaseParentObject, type: ViewTypeLiteral }, Closed);
export const ViewListResponse = ListOf('view', Type.Object({ object: Type.Literal('view'), id: Id }, Closed));

const RequestStatus = Type.Union([
  Type.Object({ type: Type.Literal('complete') }, Closed),
  Type.Object({ type: Type.Literal('incomplete'), incomplete_reason: Type.Literal('query_result_limit_reached') }, Closed),
]);
const PageReference = Type.Object({ object: Type.Literal('page'), id: Id }, Closed);

export const ViewQueryResponse = Type.Object(
  {
    object: Type.Literal('view_query'),
    id: Id,
    view_id: Id,
    expires_at: Timestamp,
    total_count: Type.Integer({ minimum: 0 }),
    results: Type.Array(PageReference),
    next_cursor: Nullable(Type.String()),
    has_more: Type.Boolean(),
    request_status: RequestStatus,
  },
  Closed,
);
export const ViewQueryResultsResponse = ListOf('page', PageReference, { request_status: RequestStatus });
export const DeletedViewQueryResponse = Type.Object({ object: Type.Literal('view_query'), id: Id, deleted: Type.Literal(true) }, Closed);
