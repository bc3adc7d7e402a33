import { presentIcon } from '../blocks/blockContent.js';
import { invalidField } from '../../errors/validationFailure.js';
import type { CoverInput, IconInput } from '../../schemas/pages.js';

/**
 * Icons and covers as stored (the response shapes). File uploads cannot be attached here yet, so
 * they are refused naming the field rather than silently dropped.
 */
export function normalizeIcon(input: IconInput | undefined, field = 'icon'): unknown {
  if (input === undefined || input === null) return null;
  if ('file_upload' in input) throw invalidField([field, 'file_upload'], 'should be not present: file uploads cannot be used as icons yet', input.file_upload);
  return presentIcon(input);
}

export function normalizeCover(input: CoverInput | undefined): unknown {
  if (input === undefined || input === null) return null;
  if ('file_upload' in input)
    throw invalidField(['cover', 'file_upload'], 'should be not present: file uploads cannot be used as covers yet', input.file_upload);
  return { type: 'external', external: { url: input.external.url } };
}
