import type { TranscriptSegment } from './summarizer.js';

/**
 * Transcripts come punctuated from good recognisers (Whisper: sentences with full stops) and bare
 * from weak ones (PocketSphinx: lowercase words, no punctuation, one segment per pause). Sentences
 * are what the summary picks from, so both are cut into sentence-sized pieces here.
 */

/** Recogniser annotations rather than speech: `[BLANK_AUDIO]`, `<sil>`, `++NOISE++`, a segment that is only `(music)`. */
const ANNOTATION = /\[[^\]]*\]|<[^>]*>|\+\+[^+]*\+\+|^\([^)]*\)$/g;
/** Ends a sentence when a word ends with it (closing quotes and brackets may follow). */
const TERMINAL = /[.!?…。！？]+["'”’)\]]*$/u;
/** Words ending in a full stop that do not end a sentence. */
const ABBREVIATIONS = new Set(['mr.', 'mrs.', 'ms.', 'dr.', 'prof.', 'st.', 'vs.', 'e.g.', 'i.e.', 'approx.', 'no.', 'jr.', 'sr.']);
/**
 * A punctuated transcript has a sentence end every dozen or so words; one end in 40 words or fewer
 * means the stops are incidental and the segments are the better cut.
 */
const WORDS_PER_TERMINAL = 40;
/** Longer pieces (a minute of unpunctuated speech) are halved until shorter: a key point should read as one. */
const MAX_SENTENCE_WORDS = 60;

export function normaliseText(text: string): string {
  return text.replace(ANNOTATION, ' ').replace(/\s+/g, ' ').trim();
}

export function splitSentences(segments: readonly TranscriptSegment[]): string[] {
  const texts = segments.map((segment) => normaliseText(segment.text)).filter(Boolean);
  // CJK full stops are not followed by a space; give them one so that they end words.
  const words = texts
    .join(' ')
    .replace(/([。！？])/gu, '$1 ')
    .split(' ')
    .filter(Boolean);
  const ends = words.filter((word) => TERMINAL.test(word)).length;
  const punctuated = ends > 0 && ends * WORDS_PER_TERMINAL >= words.length;
  const pieces = punctuated ? bySentenceEnds(words) : texts;
  return pieces.flatMap((piece) => shortened(piece.split(' ')));
}

function bySentenceEnds(words: readonly string[]): string[] {
  const sentences: string[] = [];
  let current: string[] = [];
  for (const word of words) {
    current.push(word);
    if (TERMINAL.test(word) && !ABBREVIATIONS.has(word.toLowerCase()) && !/^\p{Lu}\.$/u.test(word)) {
      sentences.push(current.join(' '));
      current = [];
    }
  }
  if (current.length > 0) sentences.push(current.join(' '));
  return sentences;
}

function shortened(words: readonly string[]): string[] {
  if (words.length <= MAX_SENTENCE_WORDS) return [words.join(' ')];
  const half = Math.ceil(words.length / 2);
  return [...shortened(words.slice(0, half)), ...shortened(words.slice(half))];
}
