/**
 * The phrases that mark a sentence of a meeting as a decision or as an action item. English only,
 * and read on lowercase text: a weak recogniser gives no capitals and no punctuation, and gets
 * "alice will send the report" right more often than a whole sentence (~70% word error rate on
 * synthetic speech, test/meetingNotes/processing.test.ts), so single cue words must be enough.
 * Each returns a strength, 0 when the sentence is not one: the strongest are kept when there are
 * more than a list holds.
 */

const WEEKDAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
const DUE = `(?:${WEEKDAY}|tomorrow|tonight|next week|next month|the next meeting|end of (?:the )?(?:day|week|month|sprint|quarter)|eod|eow)`;

const DECISION_CUES: ReadonlyArray<[RegExp, number]> = [
  [/\b(?:we|i|they|everyone|everybody|the team|the board) (?:have |has |all |just )?(?:decided|agreed|concluded|chose|picked|settled)\b/, 3],
  [/\b(?:decided|decision|agreed|agreement|consensus|settled on|signed off|approved)\b/, 2],
  [/\b(?:we(?:'ll| will| shall| are going to|'re going to)|let's|lets|let us) go with\b/, 3],
  [/\bwe(?:'re| are) going with\b/, 3],
  [/\b(?:final (?:call|answer|decision)|it's decided|that's decided|we're done with)\b/, 2],
];
/** "We haven't decided", "no decision yet", "we need to decide": talk about a decision, not one. */
const NOT_A_DECISION =
  /\b(?:not|no|never|yet to|need to|needs to|have to|has to|whether|if)\b(?: \S+){0,3} (?:decid|decision|agree)|n't(?: \S+){0,3} (?:decid|decision|agree)|\b(?:undecided|disagree)/;

const ACTION_CUES: ReadonlyArray<[RegExp, number]> = [
  [/\baction items?\b|\bto-? ?dos?\b|\bfollow(?:s|ing|ed)?[- ]?up\b|\bdeadline\b/, 3],
  [new RegExp(`\\b(?:by|before|until|due) ${DUE}\\b`), 3],
  [/\b(?:responsible for|in charge of|take care of|takes care of|assigned to|owner|owns)\b/, 3],
  [/\b(?:needs? to|has to|have to|must|should|make sure|going to|gonna)\b/, 2],
  [/\b(?:will|shall)\b|\b(?:i|we|you|he|she|they)'ll\b/, 1],
  // Someone will: "it will", "that will" and the like say what happens, not who does it.
  [/\b(?!(?:it|that|this|there|which|what|who|these|those)\b)[\p{L}']+ (?:will|shall)\b|\b(?:i|we|you|he|she|they)'ll\b/u, 1],
  [/\b(?:can|could|would) you\b|\bplease\b|\bvolunteer/, 1],
];

function lower(sentence: string): string {
  return sentence.toLowerCase().replace(/’/g, "'");
}

function strength(text: string, cues: ReadonlyArray<[RegExp, number]>): number {
  return cues.reduce((sum, [cue, weight]) => sum + (cue.test(text) ? weight : 0), 0);
}

export function decisionStrength(sentence: string): number {
  const text = lower(sentence);
  if (text.trimEnd().endsWith('?') || NOT_A_DECISION.test(text)) return 0;
  return strength(text, DECISION_CUES);
}

export function actionStrength(sentence: string): number {
  const text = lower(sentence);
  // A question asks rather than assigns ("will the budget be enough?"), unless it is a request.
  if (text.trimEnd().endsWith('?') && !/\b(?:can|could|would) you\b/.test(text)) return 0;
  return strength(text, ACTION_CUES);
}
