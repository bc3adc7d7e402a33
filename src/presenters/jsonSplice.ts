import { randomBytes } from 'node:crypto';

/**
 * Property values are stored as JSON text, and most are shown exactly as stored. Parsing each one
 * to objects only for JSON.stringify to write it back was a third of presenting a page of search
 * results (docs/benchmarks.md, "search"), so a response can carry parts as JSON text: presenters
 * put a placeholder string where such a part goes (a page, written by presentPageText with its
 * stored values as they are), and `stringify` writes the response with each placeholder's JSON
 * string replaced by its text.
 *
 * A placeholder holds a control character and a tag of this response with a random part, so no
 * string a client wrote can be taken for one: JSON.stringify escapes the control character, and
 * the tag is never shown. Only for responses that go out as presented: the version modules read and
 * rewrite values as objects, so older versions are presented without a splice.
 */
/** Random per process; a counter makes each response's tag its own without asking for randomness per request. */
const PROCESS_TAG = randomBytes(9).toString('hex');
let responses = 0;

/** A placeholder string of a JsonSplice, standing for the JSON text it replaces. */
export type Placeholder = string & { readonly placeholder: true };

/** A presented list whose results may be placeholders of a splice (written out by JsonSplice.toBuffer). */
export type WithPlaceholders<T extends { results: unknown[] }> = Omit<T, 'results'> & { results: Array<T['results'][number] | Placeholder> };

export class JsonSplice {
  private readonly texts: string[] = [];
  private readonly tag = `${PROCESS_TAG}${(responses = (responses + 1) % Number.MAX_SAFE_INTEGER)}`;

  /** The placeholder to put where `text`, a JSON value, goes. */
  add(text: string): Placeholder {
    this.texts.push(text);
    return `\u0001${this.tag}:${this.texts.length - 1}` as Placeholder;
  }

  /**
   * `value` as UTF-8 JSON, each placeholder replaced by its text, written part by part into one
   * buffer. Joined first, a single title with a character beyond Latin-1 would make the whole
   * ~100 KB response a two-byte string, several times slower to encode (docs/benchmarks.md,
   * "search"). The buffer is measured to the byte first: sized for the worst case (3 bytes per
   * UTF-16 unit), a 250 KB page of query results asked for 750 KB of fresh memory per response,
   * which cost more than reading every part twice (docs/benchmarks.md, "query", 2026-11-24).
   */
  toBuffer(value: unknown): Buffer {
    const json = JSON.stringify(value);
    if (this.texts.length === 0) return Buffer.from(json, 'utf8');
    // The placeholder as JSON.stringify writes it: quoted, the control character as \u0001. Found
    // with indexOf: a regular expression over a page of results took longer than the parsing
    // the splice saves.
    const marker = `"\\u0001${this.tag}:`;
    const parts: string[] = [];
    let from = 0;
    for (let at = json.indexOf(marker); at !== -1; at = json.indexOf(marker, from)) {
      const end = json.indexOf('"', at + marker.length);
      parts.push(json.slice(from, at), this.texts[Number(json.slice(at + marker.length, end))]);
      from = end + 1;
    }
    parts.push(json.slice(from));
    let bytes = 0;
    for (const part of parts) bytes += Buffer.byteLength(part, 'utf8');
    const out = Buffer.allocUnsafe(bytes);
    let written = 0;
    for (const part of parts) written += out.write(part, written, 'utf8');
    return out;
  }
}
