import { open } from 'node:fs/promises';

/** Where the samples of a PCM wav file are, read from its RIFF chunks. */
export interface WavLayout {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Byte offset of the first sample. */
  dataOffset: number;
  dataBytes: number;
  durationSeconds: number;
}

/** What the decoder writes and the engines read: 16 kHz, mono, 16-bit (src/processing/media/decodeAudio.ts). */
export const SPEECH_SAMPLE_RATE = 16_000;
export const SPEECH_BYTES_PER_SECOND = SPEECH_SAMPLE_RATE * 2;

/**
 * Walks the RIFF chunks rather than assuming a 44-byte header: encoders may put LIST or fact
 * chunks before `data`. A data size of 0 or 0xFFFFFFFF (a wav written to a pipe) means "to the end".
 */
export async function readWavLayout(path: string): Promise<WavLayout> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const head = Buffer.alloc(12);
    await file.read(head, 0, 12, 0);
    if (head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') throw new Error(`${path} is not a wav file`);
    let offset = 12;
    let format: Pick<WavLayout, 'sampleRate' | 'channels' | 'bitsPerSample'> | null = null;
    const chunk = Buffer.alloc(24);
    while (offset + 8 <= size) {
      await file.read(chunk, 0, 24, offset);
      const id = chunk.toString('latin1', 0, 4);
      const length = chunk.readUInt32LE(4);
      if (id === 'fmt ') {
        const audioFormat = chunk.readUInt16LE(8);
        // 1 is integer PCM; 0xFFFE (extensible) is what some encoders write for the same samples.
        if (audioFormat !== 1 && audioFormat !== 0xfffe) throw new Error(`${path} is not PCM (format ${audioFormat})`);
        format = { channels: chunk.readUInt16LE(10), sampleRate: chunk.readUInt32LE(12), bitsPerSample: chunk.readUInt16LE(22) };
      } else if (id === 'data') {
        if (!format) throw new Error(`${path} has no fmt chunk before its data`);
        const dataOffset = offset + 8;
        const dataBytes = length === 0 || length === 0xffffffff || dataOffset + length > size ? size - dataOffset : length;
        const bytesPerSecond = format.sampleRate * format.channels * (format.bitsPerSample / 8);
        return { ...format, dataOffset, dataBytes, durationSeconds: dataBytes / bytesPerSecond };
      }
      offset += 8 + length + (length % 2);
    }
    throw new Error(`${path} has no data chunk`);
  } finally {
    await file.close();
  }
}

/** The layout, refused unless it is the engines' input format. */
export async function readSpeechWavLayout(path: string): Promise<WavLayout> {
  const layout = await readWavLayout(path);
  if (layout.sampleRate !== SPEECH_SAMPLE_RATE || layout.channels !== 1 || layout.bitsPerSample !== 16) {
    throw new Error(`${path} is ${layout.sampleRate} Hz, ${layout.channels} channel(s), ${layout.bitsPerSample}-bit; expected 16 kHz mono 16-bit`);
  }
  return layout;
}

/** A canonical 44-byte header for `dataBytes` of 16 kHz mono 16-bit samples. */
export function speechWavHeader(dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(SPEECH_SAMPLE_RATE, 24);
  header.writeUInt32LE(SPEECH_BYTES_PER_SECOND, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/** 16-bit samples between two byte offsets of the data chunk (relative to its start). */
export async function readSamples(path: string, layout: WavLayout, startByte: number, endByte: number): Promise<Int16Array> {
  const from = Math.max(0, startByte - (startByte % 2));
  const to = Math.min(layout.dataBytes, endByte - (endByte % 2));
  const bytes = Buffer.alloc(Math.max(0, to - from));
  const file = await open(path, 'r');
  try {
    let read = 0;
    while (read < bytes.length) {
      const { bytesRead } = await file.read(bytes, read, bytes.length - read, layout.dataOffset + from + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return new Int16Array(bytes.buffer, bytes.byteOffset, read / 2);
  } finally {
    await file.close();
  }
}

/** The whole recording as float samples in [-1, 1), the input whisper.cpp takes. */
export async function readSpeechFloat32(path: string): Promise<Float32Array> {
  const layout = await readSpeechWavLayout(path);
  const samples = await readSamples(path, layout, 0, layout.dataBytes);
  const floats = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) floats[i] = samples[i] / 32768;
  return floats;
}
