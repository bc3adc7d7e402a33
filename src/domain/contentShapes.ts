/**
 * The JSON kept in objects.content, per object kind. One definition so every command, presenter
 * and search agrees on it.
 */
import type { RichTextItem } from './richText.js';

export interface PageContent {
  icon: unknown;
  cover: unknown;
}

export interface DatabaseContent {
  title: RichTextItem[];
  description: RichTextItem[];
  icon: unknown;
  cover: unknown;
  is_inline: boolean;
}

/** A property of a data source schema as the API shows it: `{id, name, description, type, <type>: config}`. */
export interface PropertySchema {
  id: string;
  name: string;
  description: string | null;
  type: string;
  [config: string]: unknown;
}

export interface DataSourceContent {
  title: RichTextItem[];
  description: RichTextItem[];
  icon: unknown;
  /** Keyed by property id, in display order. */
  properties: Record<string, PropertySchema>;
}

/** A block keeps its type member, e.g. `{rich_text, color}` for a paragraph. */
export type BlockContent = Record<string, unknown>;

export function parseContent<T>(json: string): T {
  return JSON.parse(json) as T;
}
