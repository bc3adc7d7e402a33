/** One NFM tag: `<name a="b">`, `</name>` or `<name a="b"/>`. */
export interface Tag {
  name: string;
  attrs: Record<string, string>;
  closing: boolean;
  selfClosing: boolean;
  /** Characters the tag takes up in the text it was read from. */
  length: number;
}

const TAG = /^<(\/?)([a-zA-Z][a-zA-Z0-9_-]*)((?:\s+[a-zA-Z][a-zA-Z0-9_-]*\s*=\s*"[^"]*")*)\s*(\/?)>/;
const ATTR = /([a-zA-Z][a-zA-Z0-9_-]*)\s*=\s*"([^"]*)"/g;

/** Reads the tag at the start of `text`, or null when there is none. */
export function readTag(text: string): Tag | null {
  const match = TAG.exec(text);
  if (!match) return null;
  const attrs: Record<string, string> = {};
  for (const [, key, value] of match[3].matchAll(ATTR)) attrs[key] = unescapeAttr(value);
  return { name: match[2].toLowerCase(), attrs, closing: match[1] === '/', selfClosing: match[4] === '/', length: match[0].length };
}

export function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function unescapeAttr(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** `name="value"` pairs in the given order, leaving out the undefined ones. */
export function attrs(pairs: Record<string, string | undefined>): string {
  return Object.entries(pairs)
    .filter((pair): pair is [string, string] => pair[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeAttr(value)}"`)
    .join('');
}

export const cut = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);
