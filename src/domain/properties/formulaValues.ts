import type { DateValue, FormulaValue, PageValue, PersonValue } from '../formulas/index.js';
import type { UserRow } from '../../storage/schema.js';
import { plainText, type RichTextItem } from '../richText.js';
import type { StoredValue } from './normalizeValue.js';

/** What converting values needs: the people of the workspace and the pages reachable through relations. */
export interface FormulaWorld {
  users: ReadonlyMap<string, UserRow>;
  page(id: string): PageValue | undefined;
}

function person(world: FormulaWorld, id: string): PersonValue {
  const user = world.users.get(id);
  return { kind: 'person', id, name: user?.name ?? null, email: user?.email ?? null };
}

const dateOf = (d: { start: string; end?: string | null; time_zone?: string | null } | null | undefined): DateValue | null =>
  d ? { start: d.start, end: d.end ?? null, time_zone: d.time_zone ?? null } : null;

/** A stored property value as the formula language sees it (`prop("…")`). */
export function toFormulaValue(value: StoredValue | undefined, world: FormulaWorld): FormulaValue {
  if (!value) return null;
  const member = value[value.type];
  switch (value.type) {
    case 'title':
    case 'rich_text':
      return plainText(member as RichTextItem[]) || null;
    case 'number':
    case 'checkbox':
    case 'url':
    case 'email':
    case 'phone_number':
      return (member as FormulaValue) ?? null;
    case 'select':
    case 'status':
      return (member as { name: string } | null)?.name ?? null;
    case 'multi_select':
      return (member as { name: string }[]).map((o) => o.name);
    case 'files':
      return (member as { name: string }[]).map((f) => f.name);
    case 'date':
      return dateOf(member as DateValue | null);
    case 'created_time':
    case 'last_edited_time':
      return { start: member as string, end: null, time_zone: null };
    case 'people':
      return (member as { id: string }[]).map((u) => person(world, u.id));
    case 'created_by':
    case 'last_edited_by':
      return person(world, (member as { id: string }).id);
    case 'relation':
      return (member as { id: string }[]).map((r) => world.page(r.id)).filter((p): p is PageValue => p !== undefined);
    case 'unique_id':
      return (member as { number: number | null }).number;
    case 'verification':
      return (member as { state: string } | null)?.state ?? null;
    case 'formula': {
      const result = member as { type: string; [k: string]: unknown };
      if (result.type === 'date') return dateOf(result.date as DateValue | null);
      return (result[result.type] as FormulaValue) ?? null;
    }
    case 'rollup': {
      const result = member as { type: string; [k: string]: unknown };
      if (result.type === 'number') return (result.number as number | null) ?? null;
      if (result.type === 'date') return dateOf(result.date as DateValue | null);
      if (result.type === 'array') {
        // Each element is itself a property value; a multi-valued one contributes its items.
        return (result.array as StoredValue[]).flatMap((item) => {
          const v = toFormulaValue(item, world);
          return Array.isArray(v) ? v : v === null ? [] : [v];
        });
      }
      return null;
    }
    default:
      return null;
  }
}
