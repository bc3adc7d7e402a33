/** Rich text items as the API returns them (spec, "Rich text item"). */
export interface Annotations {
  bold: boolean;
  italic: boolean;
  strikethrough: boolean;
  underline: boolean;
  code: boolean;
  color: string;
}

export interface RichTextItem {
  type: 'text' | 'mention' | 'equation';
  plain_text: string;
  href: string | null;
  annotations: Annotations;
  [member: string]: unknown;
}

export const DEFAULT_ANNOTATIONS: Annotations = Object.freeze({
  bold: false,
  italic: false,
  strikethrough: false,
  underline: false,
  code: false,
  color: 'default',
});

export function textItem(content: string): RichTextItem {
  return { type: 'text', text: { content, link: null }, annotations: { ...DEFAULT_ANNOTATIONS }, plain_text: content, href: null };
}

export function plainText(items: readonly RichTextItem[]): string {
  return items.map((i) => i.plain_text).join('');
}
