import type { TranscriptSegment } from './transcriber.js';

/**
 * Non-speech markers engines emit as text: whisper's `[BLANK_AUDIO]`, `(music)`, `[Music]`, `*laughs*`;
 * a segment made only of them says nothing.
 */
const MARKER_ONLY = /^(\s*(\[[^\]]*\]|\([^)]*\)|\*[^*]*\*|♪+))+\s*$/;

/**
 * What every engine returns: trimmed text, no empty or marker-only segments, times inside the
 * recording with start < end, in order. Servers and models are not trusted to do this themselves.
 */
export function tidySegments(segments: readonly TranscriptSegment[], durationSeconds: number): TranscriptSegment[] {
  const limit = durationSeconds > 0 ? durationSeconds : Infinity;
  const tidy: TranscriptSegment[] = [];
  for (const segment of segments) {
    const text = segment.text.replace(/\s+/g, ' ').trim();
    if (!text || MARKER_ONLY.test(text)) continue;
    const start = round(clamp(Number.isFinite(segment.start) ? segment.start : 0, 0, limit));
    let end = round(clamp(Number.isFinite(segment.end) ? segment.end : start, 0, limit));
    // A zero-length segment (some servers round both ends alike) still gets a sliver, so start < end holds.
    if (end <= start) end = round(Math.min(limit, start + 0.01));
    if (end <= start) continue;
    tidy.push({ start, end, text });
  }
  return tidy.sort((a, b) => a.start - b.start || a.end - b.end);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Milliseconds are all a transcript needs; floating noise such as 12.340000000001 is not. */
function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
