import { Type, type Static } from 'typebox';
import { PageSizeQuery, StrictObject } from './common.js';
import { Closed, Id, ListOf, Nullable, Timestamp } from './objectParts.js';

/**
 * The service's file-upload size limits (FACTS.md §8); the other upload rules are in
 * src/domain/files/uploadRules.ts. "20 MB" in the service's docs is read as 20 MiB, the same bound
 * as a multi-part part (docs/decisions.md "File uploads").
 */
export const MIB = 1024 * 1024;
export const SINGLE_PART_MAX_BYTES = 20 * MIB;
export const PART_MIN_BYTES = 5 * MIB;
export const PART_MAX_BYTES = 20 * MIB;
export const MAX_PARTS = 1000;
export const FILENAME_MAX_BYTES = 900;

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

// ---- Responses (newest version; see src/schemas/objectParts.ts) ----

/** SDK `FileUploadObjectResponse`; `archived` only before 2026-03-11 (the archived change adds it). */
export const FileUploadObject = Type.Object(
  {
    object: Type.Literal('file_upload'),
    id: Id,
    created_time: Timestamp,
    created_by: Type.Object({ id: Id, type: Type.Literal('bot') }, Closed),
    last_edited_time: Timestamp,
    in_trash: Type.Boolean(),
    expiry_time: Nullable(Timestamp),
    status: Type.Union([Type.Literal('pending'), Type.Literal('uploaded'), Type.Literal('expired'), Type.Literal('failed')]),
    filename: Nullable(Type.String()),
    content_type: Nullable(Type.String()),
    content_length: Nullable(Type.Integer({ minimum: 0 })),
    upload_url: Type.Optional(Type.String()),
    complete_url: Type.Optional(Type.String()),
    file_import_result: Type.Optional(
      Type.Object(
        {
          imported_time: Timestamp,
          type: Type.Union([Type.Literal('success'), Type.Literal('error')]),
          success: Type.Optional(Type.Object({}, Closed)),
          error: Type.Optional(
            Type.Object(
              {
                type: Type.Union([
                  Type.Literal('validation_error'),
                  Type.Literal('internal_system_error'),
                  Type.Literal('download_error'),
                  Type.Literal('upload_error'),
                ]),
                code: Type.String(),
                message: Type.String(),
                parameter: Nullable(Type.String()),
                status_code: Nullable(Type.Integer()),
              },
              Closed,
            ),
          ),
        },
        Closed,
      ),
    ),
    number_of_parts: Type.Optional(Type.Object({ total: Type.Integer({ minimum: 1 }), sent: Type.Integer({ minimum: 0 }) }, Closed)),
  },
  Closed,
);
export const FileUploadListResponse = ListOf('file_upload', FileUploadObject);
