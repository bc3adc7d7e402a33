import type { MeetingSummary } from './summarizer.js';

/**
 * The limits every engine's summary is cut to, whoever wrote it: a rich text item holds 2000
 * characters (spec, "Limits"), the result blocks list at most 20 items per list
 * (src/domain/meetingNotes/resultBlocks.ts), and a title is a short phrase.
 */
export const MAX_TEXT = 2000;
export const MAX_ITEMS = 20;
export const MAX_TITLE_WORDS = 8;
export const MAX_TITLE_CHARS = 100;
export const DEFAULT_TITLE = 'Meeting notes';

/** Cuts at a word boundary when one is near, so a clipped item does not end mid-word. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** At most eight words and 100 characters, first letter capitalised, no trailing punctuation. */
export function fitTitle(title: string): string {
  const words = title.replace(/\s+/g, ' ').trim().split(' ').slice(0, MAX_TITLE_WORDS).join(' ');
  const short = clip(words, MAX_TITLE_CHARS).replace(/[\s,;:.!?-]+$/u, '');
  return capitalise(short);
}

export function capitalise(text: string): string {
  return text.charAt(0).toLocaleUpperCase('en') + text.slice(1);
}

/** The title when the transcript gives none: the caller's provisional title as it was, else a generic one. */
export function fallbackTitle(provisionalTitle: string | null): string {
  return clip(provisionalTitle ?? '', MAX_TEXT) || DEFAULT_TITLE;
}

/** An engine's summary within the limits; an empty title means the engine found none. */
export function fitSummary(summary: MeetingSummary, provisionalTitle: string | null): MeetingSummary {
  const list = (items: readonly string[]) =>
    items
      .map((item) => clip(item, MAX_TEXT))
      .filter(Boolean)
      .slice(0, MAX_ITEMS);
  return {
    title: fitTitle(summary.title) || fallbackTitle(provisionalTitle),
    keyPoints: list(summary.keyPoints),
    decisions: list(summary.decisions),
    actionItems: list(summary.actionItems),
  };
}
