/**
 * Content words: what the extractive summary compares sentences by. English stopwords and the
 * filler of speech ("yeah", "gonna", "you know") carry no topic and would make every sentence
 * look alike; suffixes are trimmed so that "book", "booked" and "booking" count as one term.
 */

export interface Term {
  /** The trimmed lowercase form sentences are compared by. */
  stem: string;
  /** The word as spoken, for a title. */
  surface: string;
  /** Position among the sentence's words, stopwords included: adjacent terms form a phrase. */
  position: number;
}

export interface SentenceTerms {
  terms: Term[];
  /** Words in the sentence, stopwords included. */
  wordCount: number;
  /** How many of them are English stopwords: tells an English transcript from another. */
  stopwordCount: number;
}

// prettier-ignore
const STOPWORDS = new Set([
  'a', 'about', 'above', 'after', 'again', 'against', 'all', 'also', 'am', 'an', 'and', 'any', 'are', 'aren\'t', 'as', 'at',
  'be', 'because', 'been', 'before', 'being', 'below', 'between', 'both', 'but', 'by', 'can', 'can\'t', 'cannot', 'could',
  'couldn\'t', 'did', 'didn\'t', 'do', 'does', 'doesn\'t', 'doing', 'don\'t', 'down', 'during', 'each', 'else', 'ever', 'every',
  'few', 'for', 'from', 'further', 'had', 'hadn\'t', 'has', 'hasn\'t', 'have', 'haven\'t', 'having', 'he', 'he\'d', 'he\'ll',
  'he\'s', 'her', 'here', 'here\'s', 'hers', 'herself', 'him', 'himself', 'his', 'how', 'how\'s', 'i', 'i\'d', 'i\'ll', 'i\'m',
  'i\'ve', 'if', 'in', 'into', 'is', 'isn\'t', 'it', 'it\'s', 'its', 'itself', 'just', 'let', 'let\'s', 'lets', 'may', 'me',
  'might', 'more', 'most', 'much', 'must', 'mustn\'t', 'my', 'myself', 'no', 'nor', 'not', 'now', 'of', 'off', 'on', 'once',
  'only', 'or', 'other', 'ought', 'our', 'ours', 'ourselves', 'out', 'over', 'own', 'same', 'shall', 'shan\'t', 'she', 'she\'d',
  'she\'ll', 'she\'s', 'should', 'shouldn\'t', 'so', 'some', 'such', 'than', 'that', 'that\'s', 'the', 'their', 'theirs', 'them',
  'themselves', 'then', 'there', 'there\'s', 'these', 'they', 'they\'d', 'they\'ll', 'they\'re', 'they\'ve', 'this', 'those',
  'through', 'to', 'too', 'under', 'until', 'up', 'upon', 'us', 'very', 'was', 'wasn\'t', 'we', 'we\'d', 'we\'ll', 'we\'re',
  'we\'ve', 'were', 'weren\'t', 'what', 'what\'s', 'when', 'when\'s', 'where', 'where\'s', 'which', 'while', 'who', 'who\'s',
  'whom', 'why', 'why\'s', 'will', 'with', 'won\'t', 'would', 'wouldn\'t', 'you', 'you\'d', 'you\'ll', 'you\'re', 'you\'ve',
  'your', 'yours', 'yourself', 'yourselves', 'yet', 'still', 'even', 'however', 'though', 'although', 'since', 'whether',
  'either', 'neither', 'within', 'without', 'across', 'along', 'around', 'among', 'onto', 'per', 'via', 'another', 'many',
  'several', 'something', 'anything', 'everything', 'nothing', 'someone', 'anyone', 'everyone', 'everybody', 'somebody',
  'nobody', 'one', 'ones', 'two', 'three', 'first', 'last', 'next', 'back', 'away', 'always', 'never', 'often', 'sometimes',
  'already', 'soon', 'later', 'today', 'tomorrow', 'yesterday', 'tonight', 'ago', 'etc',
  // Speech: filler, hedges, greetings, and verbs that every sentence of a meeting has.
  'yeah', 'yep', 'yes', 'ok', 'okay', 'um', 'umm', 'uh', 'uhm', 'ah', 'oh', 'hmm', 'mm', 'mhm', 'er', 'erm', 'huh', 'hey', 'hi',
  'hello', 'bye', 'like', 'really', 'actually', 'basically', 'literally', 'probably', 'maybe', 'perhaps', 'quite', 'pretty',
  'sure', 'right', 'well', 'alright', 'anyway', 'anyways', 'kind', 'sort', 'lot', 'lots', 'bit', 'thing', 'things', 'stuff',
  'way', 'guys', 'folks', 'gonna', 'wanna', 'gotta', 'know', 'knew', 'think', 'thought', 'mean', 'means', 'guess', 'say',
  'says', 'said', 'tell', 'told', 'talk', 'talked', 'talking', 'go', 'goes', 'going', 'went', 'gone', 'get', 'gets', 'getting',
  'got', 'make', 'makes', 'made', 'take', 'takes', 'took', 'come', 'comes', 'came', 'want', 'wants', 'wanted', 'need', 'needs',
  'see', 'look', 'looks', 'good', 'great', 'nice', 'fine', 'thank', 'thanks', 'please', 'morning', 'afternoon', 'evening',
  'welcome', 'meeting', 'meetings', 'call', 'today\'s', 'everyone\'s', 'use', 'used', 'using', 'try', 'tried', 'trying',
  'put', 'keep', 'give', 'gives', 'gave', 'seem', 'seems', 'feel', 'feels', 'felt', 'done', 'doing', 'bunch',
  // Time words: every meeting has them, none names its topic.
  'day', 'days', 'week', 'weeks', 'month', 'months', 'year', 'years', 'hour', 'hours', 'minute', 'minutes', 'monday',
  'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'weekend',
]);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
/** Scripts written without spaces: a run of them is compared by character pairs instead of words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

export function sentenceTerms(sentence: string): SentenceTerms {
  const terms: Term[] = [];
  let wordCount = 0;
  let stopwordCount = 0;
  for (const match of sentence.matchAll(WORD)) {
    const surface = match[0].replace(/’/g, "'");
    const lower = surface.toLowerCase();
    const position = wordCount++;
    if (UNSPACED.test(lower)) {
      const chars = [...lower];
      if (chars.length === 1) terms.push({ stem: lower, surface, position });
      for (let i = 0; i + 1 < chars.length; i++) terms.push({ stem: chars[i] + chars[i + 1], surface, position });
    } else if (STOPWORDS.has(lower)) stopwordCount++;
    else if (lower.length > 1 || /\p{N}/u.test(lower)) terms.push({ stem: stem(lower), surface, position });
  }
  return { terms, wordCount, stopwordCount };
}

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word.toLowerCase().replace(/’/g, "'"));
}

/** A few English suffixes off, nothing more: Porter's full rules buy little on a meeting's worth of text. */
export function stem(word: string): string {
  let w = word.endsWith("'s") ? word.slice(0, -2) : word;
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2);
  else if (/(?:ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (/([b-df-hj-km-np-rtv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}
