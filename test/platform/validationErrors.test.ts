/**
 * Validation failures as structure (src/errors/validationFailure.ts): one renderer writes the
 * service's message (FACTS.md §6), and the version engine renames a failure's path, not its text.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { invalidField, missingField, renderValidationFailure, ValidationFailure } from '../../src/errors/validationFailure.js';
import { validationFailureOf } from '../../src/errors/validationMessage.js';
import { VersionEngine } from '../../src/versioning/engine.js';
import type { VersionChange } from '../../src/versioning/change.js';

describe('validation failure renderer', () => {
  test('a deep path with indexes, and the value quoted', () => {
    const failure = invalidField(['filter', 'and', 3, 'date', 'after'], 'should be an ISO 8601 date', 'soon');
    assert.equal(failure.code, 'validation_error');
    assert.equal(failure.status, 400);
    assert.deepEqual(failure.path, ['filter', 'and', 3, 'date', 'after']);
    assert.equal(failure.message, 'body failed validation: body.filter.and[3].date.after should be an ISO 8601 date, instead was `"soon"`.');
  });

  test('each rule in its words; a length rule is stated on `.length`', () => {
    const at = { part: 'query', path: ['page_size'] } as const;
    const cases: [ValidationFailure['rule'], ValidationFailure['actual'], string][] = [
      [{ name: 'required' }, { value: undefined }, 'query.page_size should be defined, instead was `undefined`.'],
      [{ name: 'not_allowed' }, { value: 1 }, 'query.page_size should be not present, instead was `1`.'],
      [{ name: 'not_allowed', reason: 'why' }, null, 'query.page_size should be not present: why.'],
      [{ name: 'type', types: ['integer', 'null'] }, { value: 'a' }, 'query.page_size should be an integer or `null`, instead was `"a"`.'],
      [{ name: 'enum', allowed: ['a', 'b', 'c'] }, { json: 'd' }, 'query.page_size should be "a", "b", or "c", instead was "d".'],
      [{ name: 'max_length', limit: 2 }, { value: 3 }, 'query.page_size.length should be ≤ `2`, instead was `3`.'],
      [{ name: 'minimum', limit: 1 }, { value: 0 }, 'query.page_size should be ≥ `1`, instead was `0`.'],
      [{ name: 'min_properties', limit: 1 }, { value: {} }, 'query.page_size should have at least 1 key, instead was `{}`.'],
      [{ name: 'format', format: 'uuid' }, { words: 'larger' }, 'query.page_size should be a valid uuid, instead was larger.'],
    ];
    for (const [rule, actual, text] of cases) {
      assert.equal(renderValidationFailure({ ...at, rule, actual }), `query failed validation: ${text}`);
    }
  });

  test('keys that would read as something else are quoted; numbers are indexes', () => {
    assert.equal(
      missingField(['properties', '', 'title']).message,
      'body failed validation: body.properties[""].title should be defined, instead was `undefined`.',
    );
    assert.equal(missingField([0, '[x']).message, 'body failed validation: body[0]["[x"] should be defined, instead was `undefined`.');
  });

  test('an Ajv error becomes the same structure', () => {
    const failure = validationFailureOf('body', [
      {
        keyword: 'maxLength',
        instancePath: '/children/2/paragraph/rich_text/0/text/content',
        schemaPath: '#',
        params: { limit: 2000 },
        data: 'x'.repeat(2001),
      },
    ]);
    assert.deepEqual(failure.path, ['children', 2, 'paragraph', 'rich_text', 0, 'text', 'content']);
    assert.deepEqual(failure.rule, { name: 'max_length', limit: 2000 });
    assert.deepEqual(failure.actual, { value: 2001 });
    assert.equal(
      failure.message,
      'body failed validation: body.children[2].paragraph.rich_text[0].text.content.length should be ≤ `2000`, instead was `2001`.',
    );
  });
});

describe('version engine renames failures on their structure', () => {
  const renameDatabase: VersionChange = {
    version: '2025-09-03',
    description: 'test: databases became data sources',
    callerPath: (path, route) => (route === 'POST /v1/query' ? path.map((seg) => (seg === 'data_source' ? 'database' : seg)) : undefined),
  };
  const engine = new VersionEngine([renameDatabase]);

  test('a deep path with indexes is renamed and the message re-rendered', () => {
    const failure = invalidField(['filter', 'and', 3, 'data_source', 'after'], 'should be a date', 7);
    const translated = engine.translateValidationFailure('2022-06-28', 'POST /v1/query', failure);
    assert.deepEqual(translated.path, ['filter', 'and', 3, 'database', 'after']);
    assert.deepEqual(translated.rule, failure.rule);
    assert.equal(translated.message, 'body failed validation: body.filter.and[3].database.after should be a date, instead was `7`.');
  });

  test('nothing renamed: the same failure; callers at the change or later, other routes and other parts are untouched', () => {
    const failure = invalidField(['filter', 'data_source'], 'should be a date', 7);
    assert.equal(engine.translateValidationFailure('2025-09-03', 'POST /v1/query', failure), failure);
    assert.equal(engine.translateValidationFailure('2022-06-28', 'POST /v1/other', failure), failure);
    const inQuery = invalidField(['data_source'], 'should be a date', 7, 'query');
    assert.equal(engine.translateValidationFailure('2022-06-28', 'POST /v1/query', inQuery), inQuery);
  });

  test('the registered changes: a property path under initial_data_source reads as the caller wrote it', () => {
    const failure = validationFailureOf('body', [
      { keyword: 'type', instancePath: '/initial_data_source/properties/Due date/date', schemaPath: '#', params: { type: 'object' }, data: 1 },
    ]);
    const translated = new VersionEngine().translateValidationFailure('2022-06-28', 'POST /v1/databases', failure);
    assert.equal(translated.message, 'body failed validation: body.properties.Due date.date should be an object, instead was `1`.');
  });
});
