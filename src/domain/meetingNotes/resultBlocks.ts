import type { BlockInput } from '../../schemas/blocks.js';
import type { TimedText } from './meetingNotesJob.js';

/**
 * The blocks processing writes under a meeting notes block, as request-shaped trees for
 * insertBlockTree (so they obey every rule a caller's blocks do): three toggles whose ids the
 * block lists in `meeting_notes.children` (docs/decisions.md "Meeting notes").
 */

/** A rich text item's limit (spec, "Limits"); a paragraph is kept under it. */
const MAX_TEXT = 2000;
/** insertBlockTree's request limit is 1000 blocks; the toggle is one of them. */
const MAX_PARAGRAPHS = 999;
/** Summaries list at most this many items per list. */
const MAX_ITEMS = 20;

const text = (content: string) => [{ type: 'text', text: { content: content.slice(0, MAX_TEXT) } }];
const block = (type: string, content: string, extra: Record<string, unknown> = {}): BlockInput => ({ type, [type]: { rich_text: text(content), ...extra } });

/** `[1:02:03]` or `[02:03]`: where in the recording a paragraph starts. */
export function timestamp(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const hh = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `[${hh}:${mm}:${ss}]` : `[${mm}:${ss}]`;
}

/** Segments joined into paragraphs, each starting with its time, never longer than a rich text item. */
export function transcriptParagraphs(segments: readonly TimedText[]): string[] {
  const texts = segments.map((s) => s.text.trim()).filter(Boolean);
  const total = texts.reduce((n, t) => n + t.length + 1, 0);
  // Long recordings: fewer, longer paragraphs, so the transcript fits one write.
  const target = Math.min(MAX_TEXT - 12, Math.max(400, Math.ceil(total / MAX_PARAGRAPHS)));
  const paragraphs: string[] = [];
  let current = '';
  for (const segment of segments) {
    const words = segment.text.trim();
    if (!words) continue;
    const head = current ? '' : `${timestamp(segment.start)} `;
    if (current && current.length + 1 + words.length > target) {
      paragraphs.push(current);
      current = `${timestamp(segment.start)} ${words}`;
    } else current = current ? `${current} ${words}` : `${head}${words}`;
  }
  if (current) paragraphs.push(current);
  return paragraphs.map((p) => p.slice(0, MAX_TEXT)).slice(0, MAX_PARAGRAPHS);
}

export function transcriptBlock(segments: readonly TimedText[]): BlockInput {
  const paragraphs = transcriptParagraphs(segments);
  const children = paragraphs.length > 0 ? paragraphs.map((p) => block('paragraph', p)) : [block('paragraph', 'No speech was recognised.')];
  return block('toggle', 'Transcript', { children });
}

export interface SummaryLists {
  keyPoints: readonly string[];
  decisions: readonly string[];
  actionItems: readonly string[];
}

export function summaryBlock(summary: SummaryLists): BlockInput {
  const points = summary.keyPoints.slice(0, MAX_ITEMS);
  const children = points.length > 0 ? points.map((p) => block('bulleted_list_item', p)) : [block('paragraph', 'No key points were found.')];
  return block('toggle', 'Summary', { children });
}

export function notesBlock(summary: SummaryLists): BlockInput {
  const decisions = summary.decisions.slice(0, MAX_ITEMS);
  const actions = summary.actionItems.slice(0, MAX_ITEMS);
  const children: BlockInput[] = [
    block('heading_3', 'Decisions'),
    ...(decisions.length > 0 ? decisions.map((d) => block('bulleted_list_item', d)) : [block('paragraph', 'No decisions were recorded.')]),
    block('heading_3', 'Action items'),
    ...(actions.length > 0 ? actions.map((a) => block('to_do', a, { checked: false })) : [block('paragraph', 'No action items were recorded.')]),
  ];
  return block('toggle', 'Notes', { children });
}
