import { Type, type Static } from 'typebox';
import { PageSizeQuery, StrictObject } from './common.js';
import { MAX_PARTS } from '../domain/files/uploadRules.js';

export const FILE_UPLOAD_MODES = ['single_part', 'multi_part', 'external_url'] as const;
export const FILE_UPLOAD_STATUSES = ['pending', 'uploaded', 'expired', 'failed'] as const;

/** SDK `CreateFileUploadBodyParameters`; which fields each mode needs is checked by the command. */
export const CreateFileUploadBody = StrictObject({
  mode: Type.Optional(Type.Enum([...FILE_UPLOAD_MODES])),
  // 900 bytes is checked on the UTF-8 form (src/domain/files/uploadRules.ts); this bounds the characters.
  filename: Type.Optional(Type.String({ minLength: 1, maxLength: 900 })),
  content_type: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  number_of_parts: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PARTS })),
  external_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
});
export type CreateFileUploadInput = Static<typeof CreateFileUploadBody>;

export const ListFileUploadsQuery = StrictObject({
  status: Type.Optional(Type.Enum([...FILE_UPLOAD_STATUSES])),
  start_cursor: Type.Optional(Type.String({ maxLength: 2000 })),
  page_size: Type.Optional(PageSizeQuery),
});

export const FileUploadParams = StrictObject({ file_upload_id: Type.String() });
