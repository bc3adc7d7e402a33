import { Type, type TProperties, type TSchema } from 'typebox';
import { StrictObject } from '../../../schemas/common.js';
import { Caption, ExternalFile, FileUploadRef, sharedBlockPart } from '../../../schemas/blocks.js';
import type { BlockContent } from '../../contentShapes.js';
import { HOSTED_SCHEME, hostedFilename } from '../../files/hostedFiles.js';
import { PLAIN, presentFields, type BlockMarkdown, type MediaRules, type WritableBlockTypeDefinition } from './definition.js';
import { paragraphOf, plainOf, rich, richFromText, tagged } from '../../markdown/forms.js';
import { attrs } from '../../markdown/tags.js';
import { toMarkdown } from 'mdast-util-to-markdown';
import { SERIALIZE_OPTIONS } from '../../markdown/syntax.js';

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

function mediaBlock(rules: MediaRules, markdown: BlockMarkdown): WritableBlockTypeDefinition {
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
    markdown,
  };
}

export const image = mediaBlock({ named: false, recording: false }, imageMarkdown());
export const video = mediaBlock({ named: false, recording: true }, mediaTagMarkdown('video'));
export const audio = mediaBlock({ named: false, recording: true }, mediaTagMarkdown('audio'));
export const file = mediaBlock({ named: true, recording: true }, mediaTagMarkdown('file'));
export const pdf = mediaBlock({ named: false, recording: false }, mediaTagMarkdown('pdf'));

/** The link a media member shows: its external link or its (hosted) file's. */
const sourceOf = (member: Record<string, unknown>) =>
  String((member.external as { url?: string } | undefined)?.url ?? (member.file as { url?: string } | undefined)?.url ?? '');

/** A link read back: a hosted file's reference (the commands allow only the page's own) or an external link. */
const sourceMember = (url: string) => (url.startsWith(HOSTED_SCHEME) ? { file: { url, expiry_time: null } } : { external: { url } });

/** `![alt](url)` written directly when the link needs no escaping (mdast-util-to-markdown is slow: bench/markdown). */
const fastImage = (url: string, alt: string) =>
  /^[^\s()<>\\]*$/.test(url) && !alt.includes('\n') ? `![${alt.replace(/[\\*_~`$[\]<>{}|^&]/g, '\\$&')}](${url})` : null;

/** `![caption](url)`: the caption is the image's alt text, so plain (FACTS.md §10.1 1.3). */
function imageMarkdown(): BlockMarkdown {
  return {
    render: (block) => [
      fastImage(sourceOf(block.member), plainOf(block.member.caption)) ??
        toMarkdown(
          { type: 'paragraph', children: [{ type: 'image', url: sourceOf(block.member), alt: plainOf(block.member.caption) }] },
          SERIALIZE_OPTIONS,
        ).replace(/\n$/, ''),
    ],
    parse(node) {
      const paragraph = paragraphOf(node);
      const image = paragraph?.children.length === 1 && paragraph.children[0].type === 'image' ? paragraph.children[0] : null;
      if (!image) return null;
      return { member: { ...sourceMember(image.url), caption: image.alt ? [{ type: 'text', text: { content: image.alt } }] : [] }, children: node.children };
    },
  };
}

/** `<audio src="URL">Caption</audio>`, and so for video, file and pdf. */
function mediaTagMarkdown(name: string): BlockMarkdown {
  return {
    render: (block) => [`<${name}${attrs({ src: sourceOf(block.member) })}>${rich(block.member, 'caption')}</${name}>`],
    parse(node) {
      const tag = tagged(node, name);
      if (!tag) return null;
      return { member: { ...sourceMember(tag.attrs.src ?? ''), caption: richFromText(node.inner) }, children: node.children };
    },
  };
}
