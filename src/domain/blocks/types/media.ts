import { Type, type TProperties, type TSchema } from 'typebox';
import { StrictObject } from '../../../schemas/common.js';
import { Caption, ExternalFile, FileUploadRef, sharedBlockPart } from '../../../schemas/blocks.js';
import type { BlockContent } from '../../contentShapes.js';
import { hostedFilename } from '../../files/hostedFiles.js';
import { PLAIN, presentFields, type MediaRules, type WritableBlockTypeDefinition } from './definition.js';

/** Media sources: a link, or a file upload (FACTS.md §8). */
function mediaMember(withName: boolean, partial: boolean): TSchema {
  return sharedBlockPart(`media-${withName ? 'named' : 'plain'}-${partial ? 'update' : 'create'}`, mediaSchema(withName, partial));
}

function mediaSchema(withName: boolean, partial: boolean): TSchema {
  const name: TProperties = withName ? { name: Type.Optional(Type.String({ maxLength: 900 })) } : {};
  if (partial) {
    return StrictObject({
      type: Type.Optional(Type.Union([Type.Literal('external'), Type.Literal('file_upload')])),
      external: Type.Optional(ExternalFile),
      file_upload: Type.Optional(FileUploadRef),
      caption: Caption,
      ...name,
    });
  }
  return Type.Union([
    StrictObject({ type: Type.Optional(Type.Literal('external')), external: ExternalFile, caption: Caption, ...name }),
    StrictObject({ type: Type.Optional(Type.Literal('file_upload')), file_upload: FileUploadRef, caption: Caption, ...name }),
  ]);
}

/** A file block shows a name; without one given, the last segment of its link. */
function fileName(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last) : '';
  } catch {
    return '';
  }
}

function mediaBlock(rules: MediaRules): WritableBlockTypeDefinition {
  const fields = ['caption', 'type', 'external', 'file'];
  return {
    ...PLAIN,
    caption: true,
    media: rules,
    request: {
      create: () => mediaMember(rules.named, false),
      update: mediaMember(rules.named, true),
      deepestLevel: 2,
      async build({ input, base, rich }) {
        // The source is a link or a hosted file (an attached upload); an edit that names neither keeps the stored one.
        const source: { type: 'external'; external: { url: string } } | { type: 'file'; file: { url: string } } =
          'external' in input
            ? { type: 'external', external: { url: (input.external as { url: string }).url } }
            : 'file' in input
              ? { type: 'file', file: input.file as { url: string } }
              : base.type === 'file'
                ? { type: 'file', file: base.file as { url: string } }
                : { type: 'external', external: (base.external as { url: string } | undefined) ?? { url: '' } };
        const out: BlockContent = { caption: await rich('caption'), ...source };
        if (rules.named) {
          const named = source.type === 'file' ? (hostedFilename(source.file.url) ?? fileName(source.file.url)) : fileName(source.external.url);
          out.name = 'name' in input ? input.name : (base.name ?? named);
        }
        return out;
      },
    },
    present: presentFields(...fields, ...(rules.named ? ['name'] : [])),
  };
}

export const image = mediaBlock({ named: false, recording: false });
export const video = mediaBlock({ named: false, recording: true });
export const audio = mediaBlock({ named: false, recording: true });
export const file = mediaBlock({ named: true, recording: true });
export const pdf = mediaBlock({ named: false, recording: false });
