import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import { invalidField, type FieldPath } from '../../errors/validationFailure.js';
import { normalizeId } from '../../ids/ids.js';
import { isRecord } from '../../domain/isRecord.js';
import { findCustomEmojis } from '../../storage/repositories/customEmojis.js';
import { emojiUrl } from '../../ids/emojiUrl.js';
import { pathOf, type BodyPlace } from '../../domain/bodyPlace.js';

interface Reference {
  path: FieldPath;
  id: string;
  raw: unknown;
}

/** `{custom_emoji: {id, …}}` with `type: "custom_emoji"` or no type: an icon or a mention. */
function emojiIdOf(value: Record<string, unknown>): string | null {
  const ref = value.custom_emoji;
  return isRecord(ref) && typeof ref.id === 'string' && (value.type === undefined || value.type === 'custom_emoji') ? ref.id : null;
}

type Place = BodyPlace;

/** Every emoji reference of the body; an explicit stack, as bodies may nest deeper than recursion allows. */
function collect(body: unknown): Reference[] {
  const found: Reference[] = [];
  const stack: Place[] = [{ value: body, key: null, parent: null }];
  while (stack.length > 0) {
    const place = stack.pop()!;
    const { value } = place;
    if (Array.isArray(value)) value.forEach((v, i) => stack.push({ value: v, key: i, parent: place }));
    else if (isRecord(value)) {
      const id = emojiIdOf(value);
      if (id !== null) found.push({ path: pathOf(place), id: normalizeId(id) ?? id, raw: id });
      else for (const [key, v] of Object.entries(value)) stack.push({ value: v, key, parent: place });
    }
  }
  return found;
}

/**
 * Custom emojis named in a request body (page and block icons, mentions in any rich text) are
 * looked up among the workspace's emojis: an unknown id is refused naming the field, a known one
 * gets the stored name and URL in place of whatever the caller sent, so what is stored and shown
 * is the emoji as it is (FACTS.md §10.5). Returns `body` itself when it names none.
 */
export async function resolveCustomEmojis<T>(ctx: AppContext, db: Db, caller: Caller, body: T): Promise<T> {
  const references = collect(body);
  if (references.length === 0) return body;
  const found = await findCustomEmojis(
    db,
    caller.workspaceId,
    references.map((r) => r.id),
  );
  const emojis = new Map(found.map((e) => [e.id, e]));
  // Only the containers on the way to a reference are copied (once each); the rest is shared with `body`.
  const copies = new Map<object, Record<string | number, unknown>>();
  const copyOf = (container: object) => {
    let copy = copies.get(container);
    if (!copy) copies.set(container, (copy = (Array.isArray(container) ? [...container] : { ...container }) as Record<string | number, unknown>));
    return copy;
  };
  const root = copyOf(body as object);
  for (const ref of references) {
    const emoji = emojis.get(ref.id);
    if (!emoji) throw invalidField([...ref.path, 'custom_emoji', 'id'], 'should be the ID of a custom emoji of this workspace', ref.raw);
    let original = body as Record<string | number, unknown>;
    let holder = root;
    for (const key of ref.path) {
      original = original[key] as Record<string | number, unknown>;
      holder = holder[key] = copyOf(original);
    }
    holder.custom_emoji = { id: emoji.id, name: emoji.name, url: emojiUrl(ctx.config.publicUrl, emoji.id) };
  }
  return root as T;
}
