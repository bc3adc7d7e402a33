import { isRecord } from '../isRecord.js';

/** What template placeholders become when a template is applied. */
export interface PlaceholderValues {
  /** The instant applied, in the template request's time zone (`timezone`, else UTC). */
  now: Date;
  timeZone: string;
  /** The person (or bot) `@Me` stands for, and the name its mention shows. */
  me: { id: string; name: string | null };
}

/** Whether Node knows `zone` as an IANA time zone (what `timezone` must name). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** `now` as local date and time in `timeZone`, with its UTC offset: `2026-11-27T06:31:00.000+01:00`. */
function localParts(now: Date, timeZone: string): { date: string; dateTime: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).replace('GMT', '');
  return { date, dateTime: `${date}T${parts.hour}:${parts.minute}:${parts.second}.000${offset}` };
}

/**
 * A template's placeholders filled in, as the service does when it duplicates a template
 * (FACTS.md §10.4): `@Today` and `@Now` (template_mention_date) become date mentions of the time
 * applied in the request's time zone, `@Me` (template_mention_user) a mention of the person the
 * connection acts for. Works on any stored JSON: every rich text item is found wherever it sits.
 */
export function fillPlaceholders(json: string, values: PlaceholderValues): string {
  if (!json.includes('template_mention')) return json;
  const { date, dateTime } = localParts(values.now, values.timeZone);
  const fill = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(fill);
    if (!isRecord(value)) return value;
    const mention = value.type === 'mention' && isRecord(value.mention) ? value.mention : null;
    const template = mention && mention.type === 'template_mention' && isRecord(mention.template_mention) ? mention.template_mention : null;
    if (!template) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    if (template.type === 'template_mention_user') {
      return { ...value, mention: { type: 'user', user: { object: 'user', id: values.me.id } }, plain_text: `@${values.me.name ?? 'Unknown user'}` };
    }
    const start = template.template_mention_date === 'now' ? dateTime : date;
    return { ...value, mention: { type: 'date', date: { start, end: null, time_zone: null } }, plain_text: start };
  };
  return JSON.stringify(fill(JSON.parse(json)));
}
