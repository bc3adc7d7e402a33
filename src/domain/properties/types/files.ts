import { invalidField, type FieldPath } from '../../../errors/validationFailure.js';
import { each, fileAtom } from '../../rollups/rollupAtoms.js';
import { AS_STORED, noConfig, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';
import { filesConditions } from '../../query/conditions/lists.js';
import { hostedFilename } from '../../files/hostedFiles.js';

type FileInput =
  | { name: string; external: { url: string } }
  | { name?: string; file: { url: string; expiry_time?: string | null } }
  | { name?: string; file_upload: { id: string } };

function normalizeFiles(files: FileInput[], now: Date, path: FieldPath) {
  return files.map((f, i) => {
    if ('external' in f) return { name: f.name, type: 'external', external: { url: f.external.url } };
    if ('file' in f) {
      // An attached upload (src/commands/fileUploads/attachFileUploads.ts): named after its file unless named here.
      const hosted = hostedFilename(f.file.url);
      if (hosted !== null) return { name: f.name ?? hosted, type: 'file', file: { url: f.file.url, expiry_time: null } };
      // Another hosted link, kept as given; such URLs expire after an hour (FACTS.md §8).
      const name = f.name ?? decodeURIComponent(f.file.url.split(/[?#]/)[0].split('/').pop() || 'file');
      return { name, type: 'file', file: { url: f.file.url, expiry_time: new Date(now.getTime() + 3600_000).toISOString() } };
    }
    throw invalidField([...path, i, 'file_upload', 'id'], 'should be the ID of an uploaded file upload', f.file_upload.id);
  });
}

/** files: external or hosted files, read by their names. */
export const files: PropertyTypeDefinition = {
  normalize: (ctx, _property, member, path) => normalizeFiles(member as FileInput[], ctx.now, path),
  multiValued: true,
  optionValues: false,
  columns(member, into) {
    into.items = (member as { name: string }[]).map((f) => f.name);
  },
  emptyValue: () => [],
  formulaType: () => T.list(T.string),
  toFormulaValue: (member) => (member as { name: string }[]).map((f) => f.name),
  atoms: (member) => each(member, fileAtom),
  configure: noConfig,
  presentConfig: noConfig,
  page: AS_STORED,
  filters: filesConditions,
};
