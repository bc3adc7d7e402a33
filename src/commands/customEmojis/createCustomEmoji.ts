import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import type { AppContext } from '../../context.js';
import type { CustomEmojiRow } from '../../storage/schema.js';
import { type CreateCustomEmojiInput, MAX_EMOJI_BYTES } from '../../schemas/customEmojis.js';
import { invalidField } from '../../errors/validationFailure.js';
import { newId } from '../../ids/ids.js';
import { findWorkspace } from '../../storage/repositories/workspaces.js';
import { findCustomEmojiByName, insertCustomEmoji } from '../../storage/repositories/customEmojis.js';
import { adminNotFound } from '../admin/adminNotFound.js';

const nameTaken = (name: string) => invalidField(['name'], 'should be a name no other custom emoji of the workspace has', name);

/**
 * The operator adds an emoji to a workspace. The bytes must be the image the content type says
 * (checked on the bytes, not trusted), within MAX_EMOJI_BYTES. They are written to the file store
 * before the row, so a row never names missing bytes; a failed insert removes them again.
 */
export async function createCustomEmoji(ctx: AppContext, workspaceId: string, body: CreateCustomEmojiInput): Promise<CustomEmojiRow> {
  const db = ctx.store.db;
  if (!(await findWorkspace(db, workspaceId))) throw adminNotFound('workspace', workspaceId);
  const bytes = Buffer.from(body.data_base64, 'base64');
  if (bytes.length === 0) throw invalidField(['data_base64'], 'should be the base64 of an image', '');
  if (bytes.length > MAX_EMOJI_BYTES)
    throw invalidField(['data_base64'], `should decode to at most ${MAX_EMOJI_BYTES} bytes (it decodes to ${bytes.length})`, undefined);
  const sniffed = (await fileTypeFromBuffer(bytes))?.mime ?? null;
  if (sniffed !== body.content_type) {
    throw invalidField(['data_base64'], `should be an image of type ${body.content_type} (the bytes are ${sniffed ?? 'not a known image type'})`, undefined);
  }
  if (await findCustomEmojiByName(db, workspaceId, body.name)) throw nameTaken(body.name);
  const id = newId();
  const key = `emojis/${id}/${randomBytes(12).toString('hex')}`;
  const size = await ctx.files.write(key, Readable.from([bytes]));
  const row: CustomEmojiRow = {
    id,
    workspace_id: workspaceId,
    name: body.name,
    content_type: body.content_type,
    size,
    file_key: key,
    created_time: ctx.clock.now().toISOString(),
  };
  try {
    await insertCustomEmoji(db, row);
  } catch (error) {
    await ctx.files.delete([key]);
    // Another request took the name between the check and the insert.
    if (await findCustomEmojiByName(db, workspaceId, body.name)) throw nameTaken(body.name);
    throw error;
  }
  return row;
}
