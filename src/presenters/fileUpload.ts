import type { FileUploadView, ListView } from '../domain/views.js';
import type { Static } from 'typebox';
import type { FileUploadListResponse, FileUploadObject } from '../schemas/fileUploads.js';
import { presentList } from './list.js';

type FileUploadJson = Static<typeof FileUploadObject>;

/**
 * The file upload object (SDK `FileUploadObjectResponse`, FACTS.md §9). `upload_url` and
 * `complete_url` are shown while they can still be used, on the host the caller used; the parts
 * count only for multi-part uploads, the import result only once an import ended.
 */
export function presentFileUpload(view: FileUploadView, origin: string): FileUploadJson {
  const { upload, status } = view;
  const pending = status === 'pending';
  const base = `${origin}/v1/file_uploads/${upload.id}`;
  return {
    object: 'file_upload' as const,
    id: upload.id,
    created_time: upload.created_time,
    created_by: { id: upload.created_by, type: 'bot' as const },
    last_edited_time: upload.last_edited_time,
    in_trash: false,
    expiry_time: upload.expiry_time,
    status,
    filename: upload.filename,
    content_type: upload.content_type,
    content_length: upload.content_length,
    ...(pending && upload.mode !== 'external_url' ? { upload_url: `${base}/send` } : {}),
    ...(pending && upload.mode === 'multi_part' ? { complete_url: `${base}/complete` } : {}),
    ...(upload.import_result ? { file_import_result: JSON.parse(upload.import_result) as NonNullable<FileUploadJson['file_import_result']> } : {}),
    ...(upload.mode === 'multi_part' ? { number_of_parts: { total: upload.number_of_parts ?? 0, sent: view.partsSent } } : {}),
  };
}

export function presentFileUploadList(list: ListView<FileUploadView>, origin: string): Static<typeof FileUploadListResponse> {
  return presentList(
    'file_upload',
    list.items.map((view) => presentFileUpload(view, origin)),
    list.nextCursor,
  );
}
