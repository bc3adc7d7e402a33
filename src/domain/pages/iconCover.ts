import { presentIcon } from '../blocks/blockContent.js';
import { invalidField, type FieldPath } from '../../errors/validationFailure.js';
import type { HostedFileInput } from '../files/hostedFiles.js';
import type { CoverInput, IconInput } from '../../schemas/pages.js';

/**
 * Icons and covers as stored (the response shapes). A file upload was made a hosted file by the
 * command (src/commands/fileUploads/attachFileUploads.ts) before this runs; one that was not is
 * refused naming the field rather than stored as given.
 */
export function normalizeIcon(input: IconInput | HostedFileInput | undefined, field = 'icon'): unknown {
  if (input === undefined || input === null) return null;
  if ('file' in input) return { type: 'file', file: input.file };
  if ('file_upload' in input) throw unattached([field]);
  return presentIcon(input);
}

export function normalizeCover(input: CoverInput | HostedFileInput | undefined): unknown {
  if (input === undefined || input === null) return null;
  if ('file' in input) return { type: 'file', file: input.file };
  if ('file_upload' in input) throw unattached(['cover']);
  return { type: 'external', external: { url: input.external.url } };
}

function unattached(path: FieldPath) {
  return invalidField([...path, 'file_upload', 'id'], 'should be the ID of an uploaded file upload', undefined);
}
