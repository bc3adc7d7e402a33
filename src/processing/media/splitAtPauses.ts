import { readSamples, SPEECH_BYTES_PER_SECOND, SPEECH_SAMPLE_RATE, type WavLayout } from './wavFile.js';

/** A stretch of the data chunk of a 16 kHz mono 16-bit wav; byte offsets are relative to the first sample. */
export interface WavChunk {
  startByte: number;
  endByte: number;
  startSeconds: number;
  durationSeconds: number;
}

const FRAME_SAMPLES = SPEECH_SAMPLE_RATE / 100; // 10 ms
const PAUSE_FRAMES = 30; // the quietest 300 ms: long enough to be a gap between words, not a stop consonant

/**
 * Cuts a recording into `parts` nearly equal chunks, each cut moved to the quietest 300 ms within
 * `searchSeconds` of the even split, so no word is cut in two and each engine run sees whole
 * utterances. Only the samples around each cut are read, not the whole file.
 */
export async function splitAtPauses(path: string, layout: WavLayout, parts: number, searchSeconds = 10): Promise<WavChunk[]> {
  const totalSamples = Math.floor(layout.dataBytes / 2);
  const cuts: number[] = [0];
  for (let i = 1; i < parts; i++) {
    const target = Math.round((totalSamples * i) / parts);
    const search = Math.min(searchSeconds * SPEECH_SAMPLE_RATE, Math.floor(totalSamples / parts / 4));
    const from = Math.max(cuts[cuts.length - 1] + 1, target - search);
    const to = Math.min(totalSamples, target + search);
    cuts.push(from + (await quietestPoint(path, layout, from, to)));
  }
  cuts.push(totalSamples);
  const chunks: WavChunk[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    if (cuts[i + 1] <= cuts[i]) continue;
    chunks.push({
      startByte: cuts[i] * 2,
      endByte: cuts[i + 1] * 2,
      startSeconds: cuts[i] / SPEECH_SAMPLE_RATE,
      durationSeconds: ((cuts[i + 1] - cuts[i]) * 2) / SPEECH_BYTES_PER_SECOND,
    });
  }
  return chunks;
}

/** Sample offset (from `from`) of the middle of the quietest PAUSE_FRAMES-long run of 10 ms frames. */
async function quietestPoint(path: string, layout: WavLayout, from: number, to: number): Promise<number> {
  const samples = await readSamples(path, layout, from * 2, to * 2);
  const frames = Math.floor(samples.length / FRAME_SAMPLES);
  if (frames < PAUSE_FRAMES) return Math.floor(samples.length / 2);
  const energy = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let s = f * FRAME_SAMPLES; s < (f + 1) * FRAME_SAMPLES; s++) sum += samples[s] * samples[s];
    energy[f] = sum;
  }
  let window = 0;
  for (let f = 0; f < PAUSE_FRAMES; f++) window += energy[f];
  let best = window;
  let bestStart = 0;
  // Ties go to the window nearest the middle, so silence everywhere still splits evenly.
  const middle = (frames - PAUSE_FRAMES) / 2;
  for (let f = 1; f + PAUSE_FRAMES <= frames; f++) {
    window += energy[f + PAUSE_FRAMES - 1] - energy[f - 1];
    if (window < best || (window === best && Math.abs(f - middle) < Math.abs(bestStart - middle))) {
      best = window;
      bestStart = f;
    }
  }
  return (bestStart + PAUSE_FRAMES / 2) * FRAME_SAMPLES;
}
