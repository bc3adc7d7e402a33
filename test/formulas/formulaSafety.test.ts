import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileFormula, toApiFormulaValue, type CompiledFormula, type FormulaType, type FormulaValue } from '../../src/domain/formulas/index.js';
import { ADA, NOW, PROPERTIES, TASK_PAGES, contextFor, dateValue, relatedSchemas } from './fixtures.js';

function compile(expression: string): CompiledFormula {
  const result = compileFormula(expression, PROPERTIES, relatedSchemas);
  if (!result.ok) throw new Error(`compile failed at ${result.position}: ${result.message}`);
  return result.formula;
}

function run(expression: string, props: Record<string, FormulaValue> = {}): FormulaValue {
  return compile(expression).evaluate(contextFor(props));
}

describe('compile metadata', () => {
  test('dependencies list current-page properties once, in order of first use', () => {
    const f = compile('prop("Tasks").map(current.prop("Points")).sum() + prop("Count") + prop("Tasks").length()');
    assert.deepStrictEqual(f.dependencies, ['Tasks', 'Count']);
  });

  test('properties can be referenced by id; dependencies use the name', () => {
    const f = compile('prop("p-count") * 2');
    assert.deepStrictEqual(f.dependencies, ['Count']);
    assert.equal(f.evaluate(contextFor()), 10);
  });

  test('references locate every prop() name literal, own or through a relation', () => {
    const expression = 'prop("Count") + prop("Tasks").map(current.prop("Points")).sum() + prop("p-price")';
    const f = compile(expression);
    assert.deepStrictEqual(
      f.references.map((r) => ({ text: expression.slice(r.start, r.end), literal: r.literal, id: r.id, relation: r.relation })),
      [
        { text: '"Count"', literal: 'Count', id: 'p-count', relation: null },
        { text: '"Tasks"', literal: 'Tasks', id: 'p-tasks', relation: null },
        { text: '"Points"', literal: 'Points', id: 't-points', relation: 'Tasks' },
        { text: '"p-price"', literal: 'p-price', id: 'p-price', relation: null },
      ],
    );
    const escaped = compile('prop("Co\\u0075nt")');
    assert.deepStrictEqual([escaped.references[0].start, escaped.references[0].end, escaped.references[0].literal], [5, 17, 'Count']);
  });

  test('readsClock marks now() and today(), called or as methods, and nothing else', () => {
    assert.equal(compile('now()').readsClock, true);
    assert.equal(compile('dateBetween(today(), prop("Due"), "days")').readsClock, true);
    assert.equal(compile('prop("Tasks").map(current.prop("Due").dateAdd(1, "days")).first() > now()').readsClock, true);
    assert.equal(compile('prop("Due").dateAdd(1, "days")').readsClock, false);
    assert.equal(compile('"now()"').readsClock, false);
  });

  test('resultType is exactly the public FormulaType (no internal annotations)', () => {
    assert.deepStrictEqual(compile('prop("Tasks")').resultType, { kind: 'list', of: { kind: 'page' } });
    assert.deepStrictEqual(compile('prop("Tasks").first()').resultType, { kind: 'page' });
  });

  test('the expression is kept verbatim', () => {
    assert.equal(compile(' 1 +  1 ').expression, ' 1 +  1 ');
  });

  test('related-page properties need the related schema', () => {
    const result = compileFormula('prop("Tasks").map(current.prop("Points"))', PROPERTIES);
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.match(result.message, /Properties of pages related through "Tasks" are not available/);
      assert.equal(result.position, 18);
    }
  });
});

describe('evaluation is robust', () => {
  test('a property value of the wrong runtime type is treated as empty', () => {
    assert.equal(run('prop("Count") + 1', { Count: 'five' }), null);
    assert.equal(run('empty(prop("Due"))', { Due: dateValue('31/01/2024') }), true);
  });

  test('a throwing getProperty yields empty instead of throwing', () => {
    const f = compile('prop("Count") + 1');
    const value = f.evaluate({
      now: NOW,
      pageId: 'p',
      getProperty() {
        throw new Error('storage down');
      },
    });
    assert.equal(value, null);
  });

  test('evaluation never reads the wall clock', () => {
    const original = Date.now;
    Date.now = () => {
      throw new Error('Date.now() must not be called');
    };
    try {
      assert.deepStrictEqual(run('now()'), dateValue('2024-06-15T12:34:56.000Z'));
      assert.deepStrictEqual(run('today()'), dateValue('2024-06-15'));
    } finally {
      Date.now = original;
    }
  });

  test('same context, same result', () => {
    const f = compile('formatDate(dateAdd(now(), prop("Count"), "days"), "YYYY-MM-DD HH:mm")');
    const results = new Set([1, 2, 3].map(() => JSON.stringify(f.evaluate(contextFor()))));
    assert.deepStrictEqual([...results], ['"2024-06-20 12:34"']);
  });

  test('an invalid ctx.now makes now() empty', () => {
    const f = compile('now()');
    assert.equal(f.evaluate({ now: new Date(Number.NaN), pageId: 'p', getProperty: () => null }), null);
  });

  test('date-times without an offset are read in their time_zone', () => {
    const v = run('hour(prop("Meeting")) * 100 + minute(prop("Meeting"))', {
      Meeting: { start: '2024-03-10T09:30:00.000', end: null, time_zone: 'America/New_York' },
    });
    assert.equal(v, 930);
    const ts = run('timestamp(prop("Meeting"))', {
      Meeting: { start: '2024-07-01T09:30:00.000', end: null, time_zone: 'America/New_York' },
    });
    assert.equal(ts, Date.parse('2024-07-01T13:30:00.000Z'));
  });
});

describe('resource limits', () => {
  test('expressions longer than 10,000 characters are rejected', () => {
    const result = compileFormula(`"${'a'.repeat(10_000)}"`, PROPERTIES);
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.equal(result.position, 10_000);
      assert.match(result.message, /too long/);
    }
  });

  test('deep nesting is rejected without throwing', () => {
    for (const expression of [
      `${'('.repeat(4000)}1${')'.repeat(4000)}`,
      `${'-'.repeat(5000)}1`,
      `${'not '.repeat(2000)}true`,
      `${'['.repeat(3000)}${']'.repeat(3000)}`,
      `${'abs('.repeat(1500)}1${')'.repeat(1500)}`,
      Array.from({ length: 3000 }, () => '2').join('^'),
    ]) {
      const result = compileFormula(expression, PROPERTIES);
      assert.equal(result.ok, false, expression.slice(0, 20));
      if (!result.ok) assert.match(result.message, /nested too deeply/);
    }
  });

  test('nesting within the limit compiles', () => {
    assert.equal(run(`${'('.repeat(150)}1${')'.repeat(150)}`), 1);
    assert.equal(run(`${'abs('.repeat(150)}-1${')'.repeat(150)}`), 1);
  });

  test('very long operator chains are rejected, moderate ones work', () => {
    const long = compileFormula(Array.from({ length: 3000 }, () => '1').join('+'), PROPERTIES);
    assert.equal(long.ok, false);
    assert.equal(run(Array.from({ length: 500 }, () => '1').join('+')), 500);
  });

  test('repeat() and padStart() are capped at 10,000 characters', () => {
    assert.equal(run('repeat("ab", 1000000000).length()'), 10_000);
    assert.equal(run('padStart("x", 1000000000, "-").length()'), 10_000);
    assert.equal(run('padEnd("x", 1000000000).length()'), 10_000);
  });

  test('repeated doubling of text and lists stays bounded', () => {
    const names = Array.from({ length: 60 }, (_, i) => `v${i}`);
    const textLets = names.map((n, i) => `${n}, ${i === 0 ? '"xx"' : `${names[i - 1]} + ${names[i - 1]}`}`).join(', ');
    assert.equal(run(`lets(${textLets}, length(${names.at(-1)}))`), 100_000);
    const listLets = names.map((n, i) => `${n}, ${i === 0 ? '[1, 2]' : `concat(${names[i - 1]}, ${names[i - 1]})`}`).join(', ');
    assert.equal(run(`lets(${listLets}, length(${names.at(-1)}))`), 10_000);
  });

  test('runaway nested list callbacks hit the evaluation budget and yield empty', () => {
    const big = 'split(repeat("x", 5000), "")';
    const started = performance.now();
    assert.equal(run(`map(${big}, map(${big}, current)).length()`), null);
    assert.ok(performance.now() - started < 10_000);
  });

  test('regular expressions with nested quantifiers from data are not run', () => {
    assert.equal(run('test(prop("Text"), prop("Name"))', { Text: `${'a'.repeat(40)}!`, Name: '(a+)+$' }), false);
    assert.equal(run('replace(prop("Text"), prop("Name"), "-")', { Text: 'abc', Name: '(' }), 'abc');
  });

  test('random token soup never throws', () => {
    const atoms = [
      '1',
      '"a"',
      'true',
      'prop("Count")',
      'prop("Tasks")',
      'current',
      'x',
      'now()',
      '[',
      ']',
      '(',
      ')',
      ',',
      '.',
      '+',
      '-',
      '*',
      '/',
      '^',
      '==',
      '>',
      '?',
      ':',
      'and',
      'not',
      'map',
      'let',
      'if',
      'sum',
      'format',
      'dateAdd',
      '"days"',
      '/*',
      '*/',
      '"',
      '\\',
    ];
    let seed = 42;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    let compiled = 0;
    for (let n = 0; n < 3000; n++) {
      const length = 1 + Math.floor(random() * 14);
      const expression = Array.from({ length }, () => atoms[Math.floor(random() * atoms.length)]).join(random() < 0.5 ? ' ' : '');
      const result = compileFormula(expression, PROPERTIES, relatedSchemas);
      if (result.ok) {
        compiled++;
        result.formula.evaluate(contextFor());
      } else {
        assert.ok(result.position >= 0 && result.position <= expression.length, `${expression} -> ${result.position}`);
        assert.ok(result.message.length > 0);
      }
    }
    assert.ok(compiled > 0);
  });
});

describe('toApiFormulaValue', () => {
  const N: FormulaType = { kind: 'number' };
  const S: FormulaType = { kind: 'string' };
  const cases: { name: string; value: FormulaValue; type: FormulaType; expected: ReturnType<typeof toApiFormulaValue> }[] = [
    { name: 'number', value: 7, type: N, expected: { type: 'number', number: 7 } },
    { name: 'empty number', value: null, type: N, expected: { type: 'number', number: null } },
    { name: 'non-finite number', value: Number.POSITIVE_INFINITY, type: N, expected: { type: 'number', number: null } },
    { name: 'string', value: 'hi', type: S, expected: { type: 'string', string: 'hi' } },
    { name: 'empty string', value: '', type: S, expected: { type: 'string', string: null } },
    { name: 'boolean', value: false, type: { kind: 'boolean' }, expected: { type: 'boolean', boolean: false } },
    {
      name: 'date',
      value: dateValue('2024-01-01', '2024-01-05'),
      type: { kind: 'date' },
      expected: { type: 'date', date: dateValue('2024-01-01', '2024-01-05') },
    },
    { name: 'empty date', value: null, type: { kind: 'date' }, expected: { type: 'date', date: null } },
    { name: 'person', value: ADA, type: { kind: 'person' }, expected: { type: 'string', string: 'Ada Lovelace' } },
    { name: 'page', value: TASK_PAGES[0], type: { kind: 'page' }, expected: { type: 'string', string: 'Design' } },
    { name: 'list of numbers', value: [1, 2.5], type: { kind: 'list', of: N }, expected: { type: 'string', string: '1,2.5' } },
    { name: 'empty list', value: [], type: { kind: 'list', of: N }, expected: { type: 'string', string: null } },
    {
      name: 'list of dates',
      value: [dateValue('2024-01-31')],
      type: { kind: 'list', of: { kind: 'date' } },
      expected: { type: 'string', string: 'January 31, 2024' },
    },
    { name: 'empty type', value: null, type: { kind: 'empty' }, expected: { type: 'string', string: null } },
  ];
  for (const c of cases) {
    test(c.name, () => assert.deepStrictEqual(toApiFormulaValue(c.value, c.type), c.expected));
  }
});
