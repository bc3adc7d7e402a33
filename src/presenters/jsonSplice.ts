import { randomBytes } from 'node:crypto';

/**
 * Property values are stored as JSON text, and most are shown exactly as stored. Parsing each one
 * to objects only for JSON.stringify to write it back was a third of presenting a page of search
 * results (docs/benchmarks.md, "search"), so a response can carry such values as their text:
 * presenters put a placeholder string where the value goes, and `stringify` writes the response
 * with each placeholder's JSON string replaced by its text.
 *
 * A placeholder holds a control character and a tag of this response with a random part, so no
 * string a client wrote can be taken for one: JSON.stringify escapes the control character, and
 * the tag is never shown. Only for responses that go out as presented: the version modules read and
 * rewrite values as objects, so older versions are presented without a splice.
 */
/** Random per process; a counter makes each response's tag its own without asking for randomness per request. */
const PROCESS_TAG = randomBytes(9).toString('hex');
let responses = 0;

export class JsonSplice {
  private readonly texts: string[] = [];
  private readonly tag = `${PROCESS_TAG}${(responses = (responses + 1) % Number.MAX_SAFE_INTEGER)}`;

  /** The placeholder to put where `text`, a JSON value, goes. */
  add(text: string): string {
    this.texts.push(text);
    return `\u0001${this.tag}:${this.texts.length - 1}`;
  }

  stringify(value: unknown): string {
    const json = JSON.stringify(value);
    if (this.texts.length === 0) return json;
    // The placeholder as JSON.stringify writes it: quoted, the control character as \u0001. Found
    // with indexOf: a regular expression over a page of results took longer than the parsing
    // the splice saves.
    const marker = `"\\u0001${this.tag}:`;
    let out = '';
    let from = 0;
    for (let at = json.indexOf(marker); at !== -1; at = json.indexOf(marker, from)) {
      const end = json.indexOf('"', at + marker.length);
      out += json.slice(from, at) + this.texts[Number(json.slice(at + marker.length, end))];
      from = end + 1;
    }
    return out + json.slice(from);
  }
}
