/**
 * How search folds case, and where SQL's own folding falls short of it.
 *
 * Titles match case-insensitively the way SQLite's trigram tokenizer (case_sensitive 0) folds:
 * each character on its own to its lower case (foldTitle). SQLite's LIKE folds ASCII letters
 * only, so a LIKE over titles agrees with foldTitle exactly for titles with no cased letter
 * beyond ASCII; titles with one are decided in JavaScript. The ranges below cover every
 * character beyond ASCII whose foldTitle differs from itself (test/search/titleFolding.test.ts
 * checks all of Unicode against them), grouped by script block so the list stays short:
 * characters inside a block that do not fold only cost a check in JavaScript.
 *
 * search_scope.unsure (migration 004) stores, per title, whether it holds one of them; changing
 * the ranges needs a migration that recomputes that column.
 */

/** Inclusive code point ranges holding every character beyond ASCII that folds to something else. */
export const CASED_BEYOND_ASCII: ReadonlyArray<readonly [number, number]> = [
  [0xc0, 0x24f], // Latin-1 letters, Latin Extended-A and -B
  [0x370, 0x58f], // Greek, Cyrillic, Armenian
  [0x10a0, 0x10ff], // Georgian
  [0x13a0, 0x13ff], // Cherokee
  [0x1c80, 0x1cbf], // Cyrillic Extended-C, Georgian Extended
  [0x1e00, 0x1fff], // Latin Extended Additional, Greek Extended
  [0x2100, 0x218f], // letterlike symbols (Kelvin, Ångström), Roman numerals
  [0x24b6, 0x24e9], // circled letters
  [0x2c00, 0x2d2f], // Glagolitic, Latin Extended-C, Coptic, Georgian Supplement
  [0xa640, 0xa7ff], // Cyrillic Extended-B, Latin Extended-D
  [0xab70, 0xabbf], // Cherokee Supplement
  [0xff21, 0xff3a], // fullwidth Latin capitals
  [0x10400, 0x104ff], // Deseret, Osage
  [0x10570, 0x105bf], // Vithkuqi
  [0x10c80, 0x10cff], // Old Hungarian
  [0x10d50, 0x10d8f], // Garay
  [0x118a0, 0x118ff], // Warang Citi
  [0x16e40, 0x16ebf], // Medefaidrin, Beria Erfe
  [0x1e900, 0x1e95f], // Adlam
];

const CLASS = CASED_BEYOND_ASCII.map(([from, to]) => `${String.fromCodePoint(from)}-${String.fromCodePoint(to)}`).join('');

/** A GLOB pattern (SQLite) matching titles that hold a character of CASED_BEYOND_ASCII. */
export const CASED_BEYOND_ASCII_GLOB = `*[${CLASS}]*`;

const CASED_BEYOND_ASCII_RE = new RegExp(`[${CLASS}]`, 'u');

/** True when LIKE's ASCII-only folding may disagree with foldTitle on this title. */
export function mayFoldBeyondAscii(title: string): boolean {
  return CASED_BEYOND_ASCII_RE.test(title);
}

/** Case folding of the SQLite trigram tokenizer: each character on its own to its lower case. */
export function foldTitle(text: string): string {
  let out = '';
  for (const ch of text) {
    const lower = ch.toLowerCase();
    out += lower.length === ch.length || [...lower].length === 1 ? lower : ch;
  }
  return out;
}
