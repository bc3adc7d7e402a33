import { COLORS } from '../../schemas/richText.js';
import { MarkdownSyntaxError } from './syntax.js';

/** NFM writes background colours `red_bg`; the JSON API spells them `red_background` (FACTS.md §10.1 1.2). */
export function toNfmColor(color: string): string {
  return color.endsWith('_background') ? `${color.slice(0, -'_background'.length)}_bg` : color;
}

const KNOWN: ReadonlySet<string> = new Set(COLORS);

export function fromNfmColor(color: string): string {
  const api = color.endsWith('_bg') ? `${color.slice(0, -3)}_background` : color;
  if (!KNOWN.has(api)) throw new MarkdownSyntaxError(`\`${color}\` is not a colour`);
  return api;
}
