/**
 * Field names in validation messages for keys the generated bodies found awkward: an empty key
 * named the parent (`body should be not present`), and a key starting with `[` read as an index
 * (`body[  should be not present`). Both are now quoted in brackets.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ErrorObject } from 'ajv';
import { formatValidationError, pointerToPath } from '../../src/errors/validationMessage.js';

function extraKey(instancePath: string, key: string, data: Record<string, unknown>): ErrorObject {
  return { keyword: 'additionalProperties', instancePath, schemaPath: '#/additionalProperties', params: { additionalProperty: key }, data };
}

describe('validation message paths', () => {
  test('ordinary keys and indexes keep the dotted notation', () => {
    assert.equal(pointerToPath('/children/0/paragraph/rich_text/1'), 'children[0].paragraph.rich_text[1]');
    assert.equal(pointerToPath('/properties/Due date/date'), 'properties.Due date.date');
  });

  test('an empty key is written [""]', () => {
    assert.equal(pointerToPath('/properties//title'), 'properties[""].title');
    assert.equal(formatValidationError('body', [extraKey('', '', { '': 0 })]), 'body failed validation: body[""] should be not present, instead was `0`.');
    assert.equal(
      formatValidationError('body', [extraKey('/icon', '', { '': {} })]),
      'body failed validation: body.icon[""] should be not present, instead was `{}`.',
    );
  });

  test('a key starting with [ is quoted, not read as an index', () => {
    assert.equal(pointerToPath('/a/[0'), 'a["[0"]');
    assert.equal(
      formatValidationError('body', [extraKey('', '[ ', { '[ ': '' })]),
      'body failed validation: body["[ "] should be not present, instead was `""`.',
    );
  });
});
