import { invalidField, type FieldPath } from '../../errors/validationFailure.js';

/** File uploads arrive with their own issue; until then no upload id exists to attach. */
export function refuseFileUpload(value: unknown, path: FieldPath): void {
  if (value && typeof value === 'object' && 'file_upload' in value) {
    const ref = (value as { file_upload?: { id?: unknown } }).file_upload;
    throw invalidField([...path, 'file_upload', 'id'], 'should be the ID of an uploaded file upload (file upload not found)', ref?.id);
  }
}

/** Cells of a row must fill the table's width (the service refuses ragged rows). */
export function checkRowWidth(cells: readonly unknown[], width: number, path: FieldPath): void {
  if (cells.length !== width) throw invalidField([...path, 'length'], `should be \`${width}\` (the table width)`, cells.length);
}
