/** The rollup functions a rollup property may name (database property reference, "Rollup"). */
export const ROLLUP_FUNCTIONS = [
  'count',
  'count_values',
  'empty',
  'not_empty',
  'unique',
  'show_unique',
  'percent_empty',
  'percent_not_empty',
  'sum',
  'average',
  'median',
  'min',
  'max',
  'range',
  'earliest_date',
  'latest_date',
  'date_range',
  'checked',
  'unchecked',
  'percent_checked',
  'percent_unchecked',
  'count_per_group',
  'percent_per_group',
  'show_original',
] as const;

export type RollupFunction = (typeof ROLLUP_FUNCTIONS)[number];
