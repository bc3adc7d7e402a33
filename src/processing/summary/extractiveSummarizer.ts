import { capitalise, fitSummary, MAX_ITEMS, MAX_TITLE_WORDS } from './fitSummary.js';
import { actionStrength, decisionStrength } from './meetingCues.js';
import { splitSentences } from './sentences.js';
import { isStopword, sentenceTerms, type Term } from './terms.js';
import type { MeetingSummary, SummarizeInput, Summarizer } from './summarizer.js';

/**
 * The local engine: picks sentences of the transcript itself, so it needs no model and no network,
 * and gives the same summary for the same transcript (no randomness, no clock, ties broken by order).
 *
 * Sentences are weighed by LexRank's degree centrality (Erkan & Radev 2004) over TF-IDF vectors of
 * their content words: the sum of a sentence's cosine similarities to all the others. With unit
 * vectors that sum is one dot product with the sum of all vectors, so it costs O(words) where
 * TextRank's graph costs O(sentences²), and a four-hour recording takes milliseconds.
 */
export const extractiveSummarizer: Summarizer = {
  name: 'local',
  readiness: async () => ({ ready: true }),
  summarize: async (input, signal) => {
    signal?.throwIfAborted();
    return summarizeExtractively(input);
  },
};

interface Sentence {
  index: number;
  text: string;
  terms: Term[];
  /** Unit TF-IDF vector: stem → weight. */
  vector: Map<string, number>;
  score: number;
}

interface Analysis {
  sentences: Sentence[];
  /** The sum of all sentence vectors: how central each term is to the meeting. */
  centroid: Map<string, number>;
  /** In how many sentences each stem occurs. */
  documentFrequency: Map<string, number>;
  /** The share of words that are English stopwords. */
  stopwordShare: number;
}

/** Below this many content words in the whole transcript there is nothing to summarise. */
const MIN_TRANSCRIPT_TERMS = 3;
/** A decision or action item says something: "yes we will" does not. */
const MIN_ITEM_TERMS = 2;
/** A key point says more; relaxed when no sentence does (a few seconds of weak recognition). */
const MIN_KEY_POINT_TERMS = 3;
/** A sentence this similar (cosine) to a key point already taken repeats it. */
const MAX_SIMILARITY = 0.5;
/** Openings state the agenda: the first fifth of a meeting weighs up to this much more. */
const OPENING_BONUS = 0.15;
/** Sentences with fewer content words than this weigh less in proportion: "budget, yes" is not a point. */
const FULL_LENGTH_TERMS = 5;
/** English speech has about half its words in the stopword list; other languages almost none. */
const ENGLISH_STOPWORD_SHARE = 0.25;
/** Words in a title made of topics: up to three topics of one or two words, joined by ", " and "and". */
const TITLE_TOPICS = 3;

export function summarizeExtractively(input: SummarizeInput): MeetingSummary {
  const analysis = analyse(splitSentences(input.segments));
  const { sentences } = analysis;
  if (sentences.reduce((n, s) => n + s.terms.length, 0) < MIN_TRANSCRIPT_TERMS) {
    return fitSummary({ title: '', keyPoints: [], decisions: [], actionItems: [] }, input.provisionalTitle);
  }
  const ranked = pickKeyPoints(sentences);
  const items = sentences.filter((s) => s.terms.length >= MIN_ITEM_TERMS);
  const decisions = strongest(items, decisionStrength);
  const decided = new Set(decisions.map((s) => s.index));
  // A decision is not listed again as an action item, even when it names who does what.
  const actionItems = strongest(
    items.filter((s) => !decided.has(s.index)),
    actionStrength,
  );
  const english = input.language.startsWith('en') || (input.language === 'auto' && analysis.stopwordShare >= ENGLISH_STOPWORD_SHARE);
  const title = ranked.length === 0 ? '' : (english && topicTitle(analysis)) || phraseTitle(ranked[0].text);
  return fitSummary(
    {
      title,
      keyPoints: inOrder(ranked).map((s) => tidy(s.text)),
      decisions: decisions.map((s) => tidy(s.text)),
      actionItems: actionItems.map((s) => tidy(s.text)),
    },
    input.provisionalTitle,
  );
}

function analyse(texts: readonly string[]): Analysis {
  let words = 0;
  let stopwords = 0;
  const documentFrequency = new Map<string, number>();
  const counted = texts.map((text, index) => {
    const { terms, wordCount, stopwordCount } = sentenceTerms(text);
    words += wordCount;
    stopwords += stopwordCount;
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term.stem, (counts.get(term.stem) ?? 0) + 1);
    for (const stem of counts.keys()) documentFrequency.set(stem, (documentFrequency.get(stem) ?? 0) + 1);
    return { index, text, terms, counts };
  });

  const n = counted.length;
  const centroid = new Map<string, number>();
  const sentences = counted.map(({ index, text, terms, counts }): Sentence => {
    const vector = new Map<string, number>();
    let norm = 0;
    for (const [stem, count] of counts) {
      const weight = (1 + Math.log(count)) * Math.log(1 + n / documentFrequency.get(stem)!);
      vector.set(stem, weight);
      norm += weight * weight;
    }
    norm = Math.sqrt(norm);
    for (const [stem, weight] of vector) {
      vector.set(stem, weight / norm);
      centroid.set(stem, (centroid.get(stem) ?? 0) + weight / norm);
    }
    return { index, text, terms, vector, score: 0 };
  });
  for (const sentence of sentences) {
    // Similarity to every other sentence: the dot product with the sum, less the sentence's own 1.
    const centrality = sentence.vector.size > 0 && n > 1 ? (dot(sentence.vector, centroid) - 1) / (n - 1) : 0;
    const opening = 1 + OPENING_BONUS * Math.max(0, 1 - sentence.index / Math.max(1, 0.2 * n));
    const length = Math.min(1, sentence.terms.length / FULL_LENGTH_TERMS);
    sentence.score = centrality * opening * length;
  }
  return { sentences, centroid, documentFrequency, stopwordShare: words > 0 ? stopwords / words : 0 };
}

function dot(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [key, weight] of small) sum += weight * (large.get(key) ?? 0);
  return sum;
}

/** Three to five for a meeting, fewer for a few sentences; best first. */
function keyPointCount(candidates: number): number {
  if (candidates === 0) return 0;
  if (candidates <= 2) return 1;
  if (candidates <= 5) return 2;
  if (candidates <= 9) return 3;
  return candidates <= 24 ? 4 : 5;
}

/** The most central sentences that do not repeat one another, best first. */
function pickKeyPoints(sentences: readonly Sentence[]): Sentence[] {
  const minTerms = Math.min(
    MIN_KEY_POINT_TERMS,
    sentences.reduce((most, s) => Math.max(most, s.terms.length), 0),
  );
  const candidates = sentences.filter((s) => s.terms.length >= minTerms && s.terms.length > 0);
  const wanted = keyPointCount(candidates.length);
  const chosen: Sentence[] = [];
  for (const sentence of [...candidates].sort(byScore)) {
    if (chosen.length >= wanted) break;
    if (!chosen.some((c) => dot(c.vector, sentence.vector) > MAX_SIMILARITY)) chosen.push(sentence);
  }
  return chosen;
}

/** The sentences a cue marks, strongest (then most central) first when there are too many, in spoken order. */
function strongest(sentences: readonly Sentence[], strength: (sentence: string) => number): Sentence[] {
  const seen = new Set<string>();
  const found: Array<{ sentence: Sentence; strength: number }> = [];
  for (const sentence of sentences) {
    const s = strength(sentence.text);
    // The same words said twice ("bob will book the room" … "bob will book the room") are one item.
    const key = sentence.text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ');
    if (s > 0 && !seen.has(key)) found.push({ sentence, strength: s });
    seen.add(key);
  }
  found.sort((a, b) => b.strength - a.strength || byScore(a.sentence, b.sentence));
  return inOrder(found.slice(0, MAX_ITEMS).map((f) => f.sentence));
}

function byScore(a: Sentence, b: Sentence): number {
  return b.score - a.score || a.index - b.index;
}

function inOrder(sentences: readonly Sentence[]): Sentence[] {
  return [...sentences].sort((a, b) => a.index - b.index);
}

/**
 * "Payment screen, launch and report": the most central terms that recur, kept as a two-word
 * phrase when they recur side by side. Topic words name a meeting better than its best sentence
 * cut at eight words, and they are read from the stopword-free English terms, so only for English.
 */
function topicTitle({ sentences, centroid, documentFrequency }: Analysis): string {
  const surfaces = new Map<string, Map<string, number>>();
  const candidates = new Map<string, { stems: string[]; score: number }>();
  const add = (key: string, surface: string, stems: string[], score: number) => {
    const forms = surfaces.get(key) ?? new Map<string, number>();
    forms.set(surface, (forms.get(surface) ?? 0) + 1);
    surfaces.set(key, forms);
    if (!candidates.has(key)) candidates.set(key, { stems, score });
  };
  const recurs = (stem: string) => documentFrequency.get(stem)! >= 2 && stem.length >= 3 && !/^\p{N}+$/u.test(stem);
  for (const { terms } of sentences) {
    terms.forEach((term, i) => {
      if (!recurs(term.stem)) return;
      add(term.stem, spoken(term), [term.stem], centroid.get(term.stem)!);
      const next = terms[i + 1];
      if (next && next.position === term.position + 1 && next.stem !== term.stem && recurs(next.stem)) {
        // A phrase weighs a little less than its two words, so it wins only when both are central.
        add(
          `${term.stem} ${next.stem}`,
          `${spoken(term)} ${spoken(next)}`,
          [term.stem, next.stem],
          0.75 * (centroid.get(term.stem)! + centroid.get(next.stem)!),
        );
      }
    });
  }
  const topics: string[] = [];
  const used = new Set<string>();
  const ranked = [...candidates].filter(([key, c]) => c.stems.length === 1 || count(surfaces.get(key)!) >= 2).sort((a, b) => b[1].score - a[1].score);
  for (const [key, { stems }] of ranked) {
    if (topics.length >= TITLE_TOPICS) break;
    if (stems.some((stem) => used.has(stem))) continue;
    stems.forEach((stem) => used.add(stem));
    topics.push(mostFrequent(surfaces.get(key)!));
  }
  if (topics.length === 0) return '';
  return capitalise(topics.length === 1 ? topics[0] : `${topics.slice(0, -1).join(', ')} and ${topics[topics.length - 1]}`);
}

/** The best key point's opening words, not ending on "the" or "to". */
function phraseTitle(text: string): string {
  const words = tidy(text).split(' ').slice(0, MAX_TITLE_WORDS);
  while (words.length > 1 && isStopword(words[words.length - 1].replace(/[^\p{L}\p{N}'’]+$/u, ''))) words.pop();
  return words.join(' ');
}

/** The word as spoken, but not capitalised only for opening a sentence. */
function spoken(term: Term): string {
  return term.position === 0 && term.surface.slice(1) === term.surface.slice(1).toLowerCase() ? term.surface.toLowerCase() : term.surface;
}

function count(forms: ReadonlyMap<string, number>): number {
  return [...forms.values()].reduce((a, b) => a + b, 0);
}

/** The form said most often, a noun's rather than a verb's ("report" over "reported") when close. */
function mostFrequent(forms: ReadonlyMap<string, number>): string {
  let best = '';
  let most = 0;
  for (const [form, n] of forms) {
    const weight = /(?:ed|ing)$/.test(form) ? n / 2 : n;
    if (weight > most || (weight === most && form.length < best.length)) [best, most] = [form, weight];
  }
  return best;
}

/** Openers of speech off ("so, um, and we decided …"), the first letter capitalised, and "i" as "I" in lowercase text. */
function tidy(text: string): string {
  const trimmed = text.replace(/^(?:(?:so|okay|ok|um+|uh+|erm?|ah|oh|and|but|alright|yeah|yes|well,|right,|now,)[,.]?\s+)+/i, '') || text;
  const pronoun = trimmed === trimmed.toLowerCase() ? trimmed.replace(/\bi\b(?=$|\s|')/g, 'I') : trimmed;
  return capitalise(pronoun);
}
