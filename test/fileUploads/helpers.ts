/**
 * Building and sending files for the upload tests: real bytes in formats the server sniffs (WAV,
 * PNG), multipart forms as the official SDK builds them (`file` first, then `part_number`), and
 * reading a hosted file back through its signed link.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { TestServer } from '../helpers/server.js';
import type { Fixture } from '../helpers/factories.js';
import { call, type HttpResult } from '../helpers/http.js';
import { LATEST_VERSION } from '../../src/versioning/versions.js';

type Json = Record<string, any>;

export const MIB = 1024 * 1024;

/** Deterministic bytes: a file's content can be compared without keeping a copy around. */
export function patterned(length: number, seed = 1): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** A PCM WAV file of `length` bytes in all (header included), 8 kHz mono 16-bit. */
export function wav(length: number, seed = 7): Buffer {
  const data = Math.max(0, length - 44);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, patterned(data, seed)]);
}

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f3c1f30000000049454e44ae426082',
  'hex',
);

/** A Blob of the buffer's bytes (Node's Buffer type names a backing store Blob's typing refuses). */
export const blobOf = (bytes: Buffer, type = '') => new Blob([bytes as Uint8Array<ArrayBuffer>], { type });

export const sha256 = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export async function createUpload(server: TestServer, token: string, body: Json = {}): Promise<HttpResult<Json>> {
  return call<Json>(server.url, 'POST', '/v1/file_uploads', { token, body });
}

export async function created(server: TestServer, fx: Fixture, body: Json = {}): Promise<Json> {
  const res = await createUpload(server, fx.token, body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

export interface FormOptions {
  filename?: string;
  contentType?: string;
  partNumber?: string;
  /** Fields as given, after the file (the SDK's order) unless `fieldsFirst`. */
  fields?: Record<string, string>;
  fieldsFirst?: boolean;
  /** The form field holding the file; `null` leaves the file out. */
  fileField?: string | null;
}

/** POST …/send with a multipart form. */
export async function send(server: TestServer, token: string, id: string, bytes: Buffer, options: FormOptions = {}): Promise<HttpResult<Json>> {
  const form = new FormData();
  const fields: Record<string, string> = { ...(options.partNumber !== undefined ? { part_number: options.partNumber } : {}), ...options.fields };
  const addFields = () => Object.entries(fields).forEach(([name, value]) => form.append(name, value));
  if (options.fieldsFirst) addFields();
  if (options.fileField !== null) {
    form.append(options.fileField ?? 'file', blobOf(bytes, options.contentType ?? ''), options.filename ?? 'upload.bin');
  }
  if (!options.fieldsFirst) addFields();
  const response = await fetch(`${server.url}/v1/file_uploads/${id}/send`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'Notion-Version': LATEST_VERSION },
    body: form,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // kept as text for the assertion message
  }
  return { status: response.status, headers: response.headers, body: body as Json };
}

export async function sent(server: TestServer, fx: Fixture, id: string, bytes: Buffer, options: FormOptions = {}): Promise<Json> {
  const res = await send(server, fx.token, id, bytes, options);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** A `validation_error` whose message names `field`. */
export function refused(res: HttpResult<Json>, field: RegExp | string, status = 400, code = 'validation_error'): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.code, code, JSON.stringify(res.body));
  const pattern = typeof field === 'string' ? new RegExp(field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : field;
  assert.match(res.body.message, pattern);
}

/** The bytes behind a hosted file's link. */
export async function download(url: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}
