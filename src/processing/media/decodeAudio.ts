import { rm } from 'node:fs/promises';
import { ffmpegPath } from './ffmpegPath.js';
import { readWavLayout } from './wavFile.js';
import { runCommand } from '../runCommand.js';

export interface MediaInfo {
  durationSeconds: number | null;
  /** ISO 8601, from the container's creation_time metadata when it has one. */
  creationTime: string | null;
  hasAudio: boolean;
}

export interface DecodeOptions {
  maxSeconds: number;
  signal?: AbortSignal;
  /** The ffmpeg binary (src/processing/media/ffmpegPath.ts); the packaged one when not given. */
  ffmpeg?: string;
}

/** The recording cannot be used as it is (unreadable, too long, silent container): retrying will not help. The message is shown to users. */
export class MediaRefused extends Error {
  override name = 'MediaRefused';
}

/**
 * Demuxers ffmpeg may pick for an upload: audio and video containers only. Without this list a
 * crafted upload could be read as an HLS playlist or a concat script that makes ffmpeg open
 * other local files or URLs (the known ffmpeg SSRF / local-file-read class of bugs).
 */
const CONTAINERS = 'mov,mp3,wav,w64,ogg,flac,matroska,aac,asf,avi,amr,aiff,caf,wv,au,flv,mpegts,mpeg';

/** Input options shared by the probe and the decode: local files only, the containers above only. */
function inputArgs(inputPath: string): string[] {
  // `file:` keeps a name such as `http://…` or `concat:…` from being read as a protocol.
  return ['-nostdin', '-hide_banner', '-protocol_whitelist', 'file', '-format_whitelist', CONTAINERS, '-i', `file:${inputPath}`];
}

/**
 * Reads what ffmpeg prints about its input. The npm ffmpeg build has no ffprobe, so this runs
 * `ffmpeg -i` without an output, which lists the input on stderr and exits with status 1.
 */
export async function probeMedia(inputPath: string, signal?: AbortSignal, ffmpeg = ffmpegPath()): Promise<MediaInfo> {
  const { stderr, killedBy } = await runCommand(ffmpeg, inputArgs(inputPath), { signal, keepStderr: 'head', stderrLimit: 1024 * 1024 });
  if (killedBy) throw new Error(`ffmpeg was killed by ${killedBy} while reading the recording`);
  if (!/^Input #0,/m.test(stderr)) throw new MediaRefused('the file could not be read as an audio or video recording');
  return parseProbe(stderr);
}

/** Exported for tests: the fields of an `ffmpeg -i` listing. */
export function parseProbe(stderr: string): MediaInfo {
  const duration = /^\s*Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/m.exec(stderr);
  // The container's metadata is listed before any stream's, so the first creation_time is the recording's.
  const created = /^\s+creation_time\s*:\s*(\S.*?)\s*$/m.exec(stderr);
  return {
    durationSeconds: duration ? Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]) : null,
    creationTime: created ? isoTime(created[1]) : null,
    hasAudio: /^\s*Stream #0:\d+.*?: Audio: /m.test(stderr),
  };
}

/** ffmpeg prints `2026-01-02T03:04:05.000000Z`; older muxers wrote `2026-01-02 03:04:05`, meant as UTC. */
function isoTime(raw: string): string | null {
  let text = raw.replace(' ', 'T');
  if (!/(Z|[+-]\d{2}:?\d{2})$/.test(text)) text += 'Z';
  const time = Date.parse(text);
  // Cameras without a clock write 1970 or 1904 (the QuickTime epoch): no information.
  if (Number.isNaN(time) || time <= Date.UTC(1971, 0, 1)) return null;
  return new Date(time).toISOString();
}

/**
 * Decodes the first audio stream to what the transcription engines read: 16 kHz mono 16-bit wav.
 * Refuses before decoding when the container says the recording is too long or has no audio; a
 * container that does not say (live-recorded webm, some ogg) is cut by `-t` and refused after.
 */
export async function decodeToWav(inputPath: string, outputPath: string, options: DecodeOptions): Promise<MediaInfo> {
  const { maxSeconds, signal, ffmpeg = ffmpegPath() } = options;
  const probe = await probeMedia(inputPath, signal, ffmpeg);
  if (!probe.hasAudio) throw new MediaRefused('the recording has no audio track');
  if (probe.durationSeconds !== null && probe.durationSeconds > maxSeconds) {
    throw new MediaRefused(
      `the recording is ${formatLength(probe.durationSeconds, 'up')} long; at most ${formatLength(maxSeconds, 'down')} can be transcribed`,
    );
  }

  const args = [
    ...inputArgs(inputPath),
    ...['-map', '0:a:0', '-vn', '-sn', '-dn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le'],
    // One second past the limit, so a recording that runs past it is told apart from one that ends on it.
    ...['-t', String(maxSeconds + 1)],
    // No encoder LIST chunk: the engines get a plain 44-byte header.
    ...['-fflags', '+bitexact', '-flags:a', '+bitexact', '-v', 'error', '-y', '-f', 'wav', outputPath],
  ];
  try {
    const result = await runCommand(ffmpeg, args, { signal });
    if (result.killedBy) throw new Error(`ffmpeg was killed by ${result.killedBy} while decoding the recording`);
    if (result.code !== 0) {
      // The machine, not the recording, is at fault: worth another attempt later.
      if (/No space left|Cannot allocate memory|Too many open files/i.test(result.stderr)) throw new Error(`ffmpeg failed: ${lastLine(result.stderr)}`);
      throw new MediaRefused('the recording could not be decoded');
    }
    const { durationSeconds } = await readWavLayout(outputPath);
    // Half a second of slack: codec padding can make a recording the container called 4 h decode a few samples longer.
    if (durationSeconds > maxSeconds + 0.5) {
      const limit = formatLength(maxSeconds, 'down');
      throw new MediaRefused(`the recording is more than ${limit} long; at most ${limit} can be transcribed`);
    }
    if (durationSeconds === 0) throw new MediaRefused('the recording contains no audio that could be decoded');
    return { durationSeconds, creationTime: probe.creationTime, hasAudio: true };
  } catch (error) {
    // Nothing half-written is left for an engine to pick up.
    await rm(outputPath, { force: true });
    throw error;
  }
}

/**
 * "4 h 10 min", "2 min 5 s", "7 s": a length for people. Seconds are dropped from an hour on, and
 * the rounding direction keeps "X long; at most Y" truthful (a 4 h 0 min 30 s file is "4 h 1 min").
 */
export function formatLength(seconds: number, round: 'up' | 'down'): string {
  const roundTo = (unit: number) => (round === 'up' ? Math.ceil(seconds / unit) : Math.floor(seconds / unit)) * unit;
  const whole = seconds >= 3600 ? roundTo(60) : roundTo(1);
  const h = Math.floor(whole / 3600);
  const min = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const parts = [h ? `${h} h` : '', min ? `${min} min` : '', s || whole === 0 ? `${s} s` : ''].filter(Boolean);
  return parts.join(' ');
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop() ?? '';
}
