import { invalidField, type FieldPath } from '../../../errors/validationFailure.js';
import { each, fileAtom } from '../../rollups/rollupAtoms.js';
import { AS_STORED, noConfig, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';
import { filesConditions } from '../../query/conditions/lists.js';

type FileInput =
  { name: string; external: { url: string } } | { name: string; file: { url: string; expiry_time?: string } } | { name?: string; file_upload: { id: string } };

function normalizeFiles(files: FileInput[], path: FieldPath) {
  return files.map((f, i) => {
    if ('external' in f) return { name: f.name, type: 'external', external: { url: f.external.url } };
    if ('file' in f) {
      // Hosted files are served through URLs that expire after an hour (FACTS.md §8).
      return { name: f.name, type: 'file', file: { url: f.file.url, expiry_time: new Date(Date.now() + 3600_000).toISOString() } };
    }
    throw invalidField([...path, i, 'file_upload'], 'should be not present: file uploads cannot be attached to files properties yet', f.file_upload);
  });
}

/** files: external or hosted files, read by their names. */
export const files: PropertyTypeDefinition = {
  normalize: (_ctx, _property, member, path) => normalizeFiles(member as FileInput[], path),
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
