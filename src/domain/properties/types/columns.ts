import { utcIso, type DateValue } from '../dates.js';
import type { ValueColumns } from '../../../storage/repositories/propertyValues.js';

/** A date as UTC instants, so filters compare dates given in any time zone. */
export function dateColumns(into: ValueColumns, date: DateValue | null | undefined): void {
  if (!date) return;
  into.date_start = utcIso(date.start, date.time_zone ?? null);
  into.date_end = date.end ? utcIso(date.end, date.time_zone ?? null) : null;
}
