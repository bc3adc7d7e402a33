/**
 * The visible-first search plan lets SQLite's LIKE decide titles without cased letters beyond
 * ASCII, and decides the rest in JavaScript. That is only right if CASED_BEYOND_ASCII holds every
 * character whose folding differs from itself: checked here against all of Unicode as this
 * Node.js folds it, so a runtime with newer Unicode tables fails here rather than in a search.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { CASED_BEYOND_ASCII, CASED_BEYOND_ASCII_GLOB, foldTitle, mayFoldBeyondAscii } from '../../src/storage/titleFolding.js';

test('every character beyond ASCII that folds lies in CASED_BEYOND_ASCII', () => {
  const outside: string[] = [];
  for (let code = 0x80; code <= 0x10ffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const ch = String.fromCodePoint(code);
    if (foldTitle(ch) === ch) continue;
    if (!CASED_BEYOND_ASCII.some(([from, to]) => code >= from && code <= to)) outside.push(`U+${code.toString(16).toUpperCase()}`);
  }
  assert.deepEqual(outside, []);
});

test('the GLOB pattern and the JavaScript test agree on titles', () => {
  const db = new Database(':memory:');
  const glob = db.prepare('SELECT ? GLOB ? AS hit').pluck();
  const titles = ['Weekly sync — Design', 'Plain ASCII', 'Épée', 'öl', 'Kelvin \u212a', '日本語のページ', '🚀 Launch', 'ΣΊΣΥΦΟΣ', 'straße', ''];
  for (const title of titles) assert.equal(glob.get(title, CASED_BEYOND_ASCII_GLOB) === 1, mayFoldBeyondAscii(title), title);
  assert.equal(mayFoldBeyondAscii('Weekly sync — Design — 2026-03-01'), false, 'a dash folds to itself');
  assert.equal(mayFoldBeyondAscii('Kelvin \u212a'), true, 'the Kelvin sign folds to k');
  db.close();
});
