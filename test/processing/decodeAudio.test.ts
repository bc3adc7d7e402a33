/**
 * The media decoder on what people upload: speech synthesised here, re-encoded by ffmpeg into the
 * containers phones, recorders and meeting tools produce, each decoded to the engines' 16 kHz mono
 * wav; and what must be refused before any transcription is paid for.
 */
import { before, after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { decodeToWav, formatLength, MediaRefused, probeMedia } from '../../src/processing/media/decodeAudio.js';
import { ffmpegPath } from '../../src/processing/media/ffmpegPath.js';
import { readWavLayout } from '../../src/processing/media/wavFile.js';
import { runCommand } from '../../src/processing/runCommand.js';
import { synthesizeSpeech } from './speech.js';

const SPEECH = 'The quarterly review starts at ten. Please bring the sales figures and the new hiring plan.';

let dir: string;
let source: string;
let sourceSeconds: number;

async function ffmpeg(...args: string[]): Promise<void> {
  const result = await runCommand(ffmpegPath(), ['-v', 'error', '-nostdin', '-y', ...args]);
  assert.equal(result.code, 0, `ffmpeg ${args.join(' ')}: ${result.stderr}`);
}

const VIDEO = ['-f', 'lavfi', '-i', 'color=c=black:s=160x120:r=5'];

/** Each upload: how it is made from the synthesised wav. */
const FORMATS: Record<string, (out: string) => Promise<void>> = {
  'm4a (audio/mp4, AAC)': (out) => ffmpeg('-i', source, '-c:a', 'aac', '-b:a', '64k', out + '.m4a'),
  mp3: (out) => ffmpeg('-i', source, '-c:a', 'libmp3lame', '-b:a', '64k', out + '.mp3'),
  'ogg (Vorbis)': (out) => ffmpeg('-i', source, '-c:a', 'libvorbis', out + '.ogg'),
  flac: (out) => ffmpeg('-i', source, '-c:a', 'flac', out + '.flac'),
  'wav (44.1 kHz stereo)': (out) => ffmpeg('-i', source, '-ar', '44100', '-ac', '2', out + '.wav'),
  'mov (QuickTime, AAC)': (out) => ffmpeg('-i', source, '-c:a', 'aac', out + '.mov'),
  'mp4 video with an audio track': (out) => ffmpeg(...VIDEO, '-i', source, '-shortest', '-c:v', 'mpeg4', '-c:a', 'aac', out + '.mp4'),
};
const EXTENSION: Record<string, string> = {
  'm4a (audio/mp4, AAC)': '.m4a',
  mp3: '.mp3',
  'ogg (Vorbis)': '.ogg',
  flac: '.flac',
  'wav (44.1 kHz stereo)': '.wav',
  'mov (QuickTime, AAC)': '.mov',
  'mp4 video with an audio track': '.mp4',
};

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-decode-'));
  source = join(dir, 'speech.wav');
  await synthesizeSpeech(SPEECH, source);
  sourceSeconds = (await readWavLayout(source)).durationSeconds;
});
after(() => rm(dir, { recursive: true, force: true }));

describe('decodeToWav: containers and codecs', () => {
  for (const [name, make] of Object.entries(FORMATS)) {
    test(name, async () => {
      const input = join(dir, name.replace(/\W+/g, '-'));
      await make(input);
      const output = join(dir, `${name.replace(/\W+/g, '-')}.decoded.wav`);
      const info = await decodeToWav(input + EXTENSION[name], output, { maxSeconds: 60 });
      const layout = await readWavLayout(output);
      assert.deepEqual([layout.sampleRate, layout.channels, layout.bitsPerSample], [16000, 1, 16]);
      assert.equal(layout.dataOffset, 44, 'a plain header, no LIST chunk');
      assert.ok(Math.abs(layout.durationSeconds - sourceSeconds) <= 0.2, `${layout.durationSeconds} s decoded from ${sourceSeconds} s`);
      assert.equal(info.durationSeconds, layout.durationSeconds);
      assert.equal(info.hasAudio, true);
    });
  }
});

describe('decodeToWav: refusals', () => {
  test('a recording longer than the limit is refused before decoding, naming both lengths', async () => {
    const output = join(dir, 'too-long.wav');
    await assert.rejects(decodeToWav(source, output, { maxSeconds: 2 }), (error: Error) => {
      assert.ok(error instanceof MediaRefused, String(error));
      assert.equal(error.message, `the recording is ${formatLength(sourceSeconds, 'up')} long; at most 2 s can be transcribed`);
      assert.match(error.message, /^the recording is \d+ s long; at most 2 s can be transcribed$/);
      return true;
    });
    assert.equal(existsSync(output), false);
  });

  test('a recording whose container does not state its length is cut at the limit and refused', async () => {
    // Matroska written to a pipe cannot go back to write its duration: ffmpeg -i says "Duration: N/A".
    const input = join(dir, 'streamed.mka');
    const child = spawn(ffmpegPath(), ['-v', 'error', '-nostdin', '-i', source, '-c:a', 'flac', '-f', 'matroska', 'pipe:1'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await pipeline(child.stdout, createWriteStream(input));
    assert.equal((await probeMedia(input)).durationSeconds, null);

    const output = join(dir, 'streamed.wav');
    await assert.rejects(decodeToWav(input, output, { maxSeconds: 2 }), (error: Error) => {
      assert.ok(error instanceof MediaRefused, String(error));
      assert.equal(error.message, 'the recording is more than 2 s long; at most 2 s can be transcribed');
      return true;
    });
    assert.equal(existsSync(output), false);
    const info = await decodeToWav(input, output, { maxSeconds: 60 });
    assert.ok(Math.abs(info.durationSeconds! - sourceSeconds) <= 0.2);
  });

  test('a file that is not media is refused', async () => {
    const input = join(dir, 'garbage.m4a');
    await writeFile(input, randomBytes(64 * 1024));
    await assert.rejects(decodeToWav(input, join(dir, 'garbage.wav'), { maxSeconds: 60 }), (error: Error) => {
      assert.ok(error instanceof MediaRefused, String(error));
      assert.equal(error.message, 'the file could not be read as an audio or video recording');
      return true;
    });
  });

  test('a video without an audio track is refused', async () => {
    const input = join(dir, 'silent.mp4');
    await ffmpeg(...VIDEO, '-t', '3', '-c:v', 'mpeg4', input);
    assert.equal((await probeMedia(input)).hasAudio, false);
    await assert.rejects(decodeToWav(input, join(dir, 'silent.wav'), { maxSeconds: 60 }), (error: Error) => {
      assert.ok(error instanceof MediaRefused, String(error));
      assert.equal(error.message, 'the recording has no audio track');
      return true;
    });
  });

  test('a playlist pointing at other files is not followed', async () => {
    // ffmpeg on its own reads an HLS playlist and opens what it lists (local files, URLs): only media containers are accepted.
    const input = join(dir, 'playlist.m3u8');
    await writeFile(input, `#EXTM3U\n#EXT-X-TARGETDURATION:60\n#EXTINF:60,\n${source}\n#EXT-X-ENDLIST\n`);
    const unguarded = await runCommand(ffmpegPath(), ['-nostdin', '-hide_banner', '-i', input]);
    assert.match(unguarded.stderr, /Input #0, hls.*\n[\s\S]*Stream #0:0: Audio/, 'the playlist is one ffmpeg would follow');
    await assert.rejects(decodeToWav(input, join(dir, 'playlist.wav'), { maxSeconds: 60 }), MediaRefused);
  });

  test('an aborted decode rejects with the abort reason', async () => {
    const controller = new AbortController();
    controller.abort(new Error('job cancelled'));
    await assert.rejects(decodeToWav(source, join(dir, 'aborted.wav'), { maxSeconds: 60, signal: controller.signal }), /job cancelled/);
  });
});

describe('probeMedia', () => {
  test('reads the creation time from the container metadata', async () => {
    const input = join(dir, 'dated.m4a');
    await ffmpeg('-i', source, '-c:a', 'aac', '-metadata', 'creation_time=2026-01-02T03:04:05Z', input);
    const info = await probeMedia(input);
    assert.equal(info.creationTime, '2026-01-02T03:04:05.000Z');
    assert.equal(info.hasAudio, true);
    assert.ok(Math.abs(info.durationSeconds! - sourceSeconds) <= 0.2);
    const decoded = await decodeToWav(input, join(dir, 'dated.wav'), { maxSeconds: 60 });
    assert.equal(decoded.creationTime, '2026-01-02T03:04:05.000Z');
  });

  test('no creation time when the container has none', async () => {
    assert.equal((await probeMedia(source)).creationTime, null);
  });
});

describe('formatLength', () => {
  test('says lengths the way people read them, rounded so that "X long; at most Y" stays true', () => {
    assert.equal(formatLength(4 * 3600 + 10 * 60 + 12, 'up'), '4 h 11 min');
    assert.equal(formatLength(4 * 3600, 'down'), '4 h');
    assert.equal(formatLength(4 * 3600 + 30, 'up'), '4 h 1 min');
    assert.equal(formatLength(125.2, 'up'), '2 min 6 s');
    assert.equal(formatLength(7.9, 'down'), '7 s');
  });
});
