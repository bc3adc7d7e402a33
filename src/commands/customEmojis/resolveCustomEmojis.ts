import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import { invalidField, type FieldPath } from '../../errors/validationFailure.js';
import { normalizeId } from '../../ids/ids.js';
import { isRecord } from '../../domain/isRecord.js';
import { findCustomEmojis } from '../../storage/repositories/customEmojis.js';
import { emojiUrl } from '../../ids/emojiUrl.js';

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

/** Every emoji reference of the body; an explicit stack, as deep bodies overflow recursion (attachFileUploads). */
function collect(body: unknown): Reference[] {
  const found: Reference[] = [];
  const stack: { value: unknown; path: FieldPath }[] = [{ value: body, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (Array.isArray(value)) value.forEach((v, i) => stack.push({ value: v, path: [...path, i] }));
    else if (isRecord(value)) {
      const id = emojiIdOf(value);
      if (id !== null) found.push({ path, id: normalizeId(id) ?? id, raw: id });
      else for (const [key, v] of Object.entries(value)) stack.push({ value: v, path: [...path, key] });
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
  const emojis = new Map(
    (
      await findCustomEmojis(
        db,
        caller.workspaceId,
        references.map((r) => r.id),
      )
    ).map((e) => [e.id, e]),
  );
  const copy = structuredClone(body) as unknown;
  for (const ref of references) {
    const emoji = emojis.get(ref.id);
    if (!emoji) throw invalidField([...ref.path, 'custom_emoji', 'id'], 'should be the ID of a custom emoji of this workspace', ref.raw);
    let holder = copy as Record<string | number, unknown>;
    for (const key of ref.path) holder = holder[key] as Record<string | number, unknown>;
    holder.custom_emoji = { id: emoji.id, name: emoji.name, url: emojiUrl(ctx.config.publicUrl, emoji.id) };
  }
  return copy as T;
}
