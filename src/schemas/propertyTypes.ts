/**
 * The property types a data source schema may hold (issue 3 item 5; FACTS.md §9 "Data source").
 * Button, place and the other newer types are not modelled: a request naming them is refused.
 */
export const PROPERTY_TYPES = [
  'title',
  'rich_text',
  'number',
  'select',
  'multi_select',
  'status',
  'date',
  'people',
  'files',
  'checkbox',
  'url',
  'email',
  'phone_number',
  'formula',
  'relation',
  'rollup',
  'created_time',
  'created_by',
  'last_edited_time',
  'last_edited_by',
  'unique_id',
  'verification',
] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

/** Option colours (SDK `SelectColor`). */
export const SELECT_COLORS = ['default', 'gray', 'brown', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'red'] as const;
export type SelectColor = (typeof SELECT_COLORS)[number];

/** Number formats listed by the database property reference. */
export const NUMBER_FORMATS = [
  'number',
  'number_with_commas',
  'percent',
  'dollar',
  'australian_dollar',
  'canadian_dollar',
  'singapore_dollar',
  'euro',
  'pound',
  'yen',
  'ruble',
  'rupee',
  'won',
  'yuan',
  'real',
  'lira',
  'rupiah',
  'franc',
  'hong_kong_dollar',
  'new_zealand_dollar',
  'krona',
  'norwegian_krone',
  'mexican_peso',
  'rand',
  'new_taiwan_dollar',
  'danish_krone',
  'zloty',
  'baht',
  'forint',
  'koruna',
  'shekel',
  'chilean_peso',
  'philippine_peso',
  'dirham',
  'colombian_peso',
  'riyal',
  'ringgit',
  'leu',
  'argentine_peso',
  'uruguayan_peso',
  'peruvian_sol',
] as const;

/** The three fixed status groups, in display order, with the colours the service gives them. */
export const STATUS_GROUPS = [
  { name: 'To-do', color: 'gray' },
  { name: 'In progress', color: 'blue' },
  { name: 'Complete', color: 'green' },
] as const;
export type StatusGroupName = (typeof STATUS_GROUPS)[number]['name'];

/** Text limits of property values (FACTS.md §6). */
export const VALUE_LIMITS = { url: 2000, email: 200, phone_number: 200, optionName: 100, listItems: 100 } as const;
