import type { TranscriptSegment } from './transcriber.js';

/** A recognised word with its times in seconds. */
export interface TimedWord {
  word: string;
  start: number;
  end: number;
}

/**
 * When a pause ends a segment: any long pause; a sentence-length pause once the segment has a few
 * seconds; a breath once it is long; and never past 30 s, so a monologue still reads in pieces.
 * Set from espeak-ng speech through pocketsphinx, where the silence between sentences comes out
 * at 0.27–0.32 s, at a comma 0.16 s, and between words of a phrase 0–0.05 s; people pause longer,
 * which only makes their segments end at sentences more surely.
 */
const ALWAYS_BREAK_GAP = 1.0;
const SENTENCE_GAP = 0.25;
const SENTENCE_MIN_SECONDS = 3;
const BREATH_GAP = 0.12;
const BREATH_MIN_SECONDS = 12;
const MAX_SECONDS = 30;

/** Groups words, in time order, into utterance-sized segments at the pauses between them. */
export function groupWords(words: readonly TimedWord[]): TranscriptSegment[] {
  const segments: TranscriptSegment[] = [];
  let current: TimedWord[] = [];
  const flush = () => {
    if (current.length === 0) return;
    segments.push({ start: current[0].start, end: current[current.length - 1].end, text: sentence(current.map((w) => w.word)) });
    current = [];
  };
  for (const word of words) {
    if (current.length > 0) {
      const gap = word.start - current[current.length - 1].end;
      const length = current[current.length - 1].end - current[0].start;
      const breakHere =
        gap >= ALWAYS_BREAK_GAP ||
        (gap >= SENTENCE_GAP && length >= SENTENCE_MIN_SECONDS) ||
        (gap >= BREATH_GAP && length >= BREATH_MIN_SECONDS) ||
        word.end - current[0].start > MAX_SECONDS;
      if (breakHere) flush();
    }
    current.push(word);
  }
  flush();
  return segments;
}

/** Lower-case words as pocketsphinx's dictionary spells them, made readable: a capital to start, "I" as a word. */
function sentence(words: string[]): string {
  const text = words.map((w) => (w === 'i' || w.startsWith("i'") ? 'I' + w.slice(1) : w)).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
