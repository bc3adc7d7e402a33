/**
 * Speech for the transcription tests, the meeting-notes end-to-end tests and the benchmark:
 * synthesised by espeak-ng (Debian package `espeak-ng`), scored by word recall.
 */
import { Readable } from 'node:stream';
import { runCommand } from '../../src/processing/runCommand.js';

/**
 * espeak-ng's Klatt voice: pocketsphinx recognises it far better than the default voice. Measured
 * here on one 40-word paragraph: word recall 0.23 with `en-us`, 0.62 with `en-us+klatt2`, 0.54–0.59
 * with the other Klatt variants, and no better when spoken slower (`-s 140`: 0.56).
 */
const VOICE = 'en-us+klatt2';

/**
 * A weekly planning meeting, about 62 s as espeak-ng speaks it: four people's points, a decision
 * ("we decided to …") and action items ("Alice will …", "Bob will …", "Carol will …").
 */
export const MEETING_SCRIPT =
  "Good morning everyone, and thanks for joining the weekly planning meeting. Let's start with a quick round of updates. " +
  'Alice here. The new website is almost ready. The design is finished, but the payment page still needs more testing before we can go live. ' +
  'Bob speaking. The customer survey came back last week. Most people asked for a simpler sign up form, and many of them want to pay by phone. ' +
  'Carol here. Our budget for the next quarter is tight, so I think we should focus on one project at a time and keep the team small. ' +
  'Dave here. The office move is still planned for July, and the new desks will arrive at the end of May. ' +
  'Thanks. After some discussion, we decided to launch the new website on the first of June, and to delay the mobile app until the autumn. ' +
  'Now for the action items. Alice will finish testing the payment page by Friday. ' +
  'Bob will write a short summary of the survey and share it with the whole team. ' +
  'Carol will prepare the budget report for the board meeting next Tuesday. ' +
  "That's everything for today. Thank you all, and see you next week.";

/** Speaks `text` into a wav file (22 050 Hz mono 16-bit, 44-byte header, as espeak-ng writes it). */
export async function synthesizeSpeech(text: string, wavPath: string): Promise<void> {
  // On stdin, so text starting with "-" is never read as an option.
  const result = await runCommand('espeak-ng', ['-v', VOICE, '-w', wavPath, '--stdin'], { stdin: Readable.from([text]) });
  if (result.code !== 0) throw new Error(`espeak-ng failed (${result.killedBy ?? `status ${result.code}`}): ${result.stderr.trim()}`);
}

/** Lower-case words without punctuation; apostrophes inside words stay ("let's"). */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\s]+/gu, ' ')
    .split(/\s+/)
    .map((word) => word.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

/** The fraction of the spoken words (each occurrence counted) that appear anywhere in what was heard. */
export function wordRecall(spoken: string, heard: string): number {
  const said = words(spoken);
  if (said.length === 0) return 1;
  const recognised = new Set(words(heard));
  return said.filter((word) => recognised.has(word)).length / said.length;
}
