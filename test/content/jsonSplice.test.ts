/**
 * JsonSplice writes stored JSON text where its placeholders stand, and nothing else: a string a
 * client wrote that looks like a placeholder stays a string.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonSplice } from '../../src/presenters/jsonSplice.js';

test('placeholders become their text; look-alike strings stay strings', () => {
  const splice = new JsonSplice();
  const first = splice.add('{"type":"number","number":1}');
  const second = splice.add('[1,"two — é 😀",{"three":null}]');
  const forged = first.replace(/[0-9a-f]{18}/, '0'.repeat(18));
  const value = { a: first, list: [second, 'plain — ü', '\u0001:0'], forged, nested: { again: first } };
  const json = splice.toBuffer(value).toString('utf8');
  assert.deepEqual(JSON.parse(json), {
    a: { type: 'number', number: 1 },
    list: [[1, 'two — é 😀', { three: null }], 'plain — ü', '\u0001:0'],
    forged,
    nested: { again: { type: 'number', number: 1 } },
  });
});

test('without placeholders it is JSON.stringify', () => {
  const value = { a: 'x\u0001y', b: [1, null] };
  assert.equal(new JsonSplice().toBuffer(value).toString('utf8'), JSON.stringify(value));
});
