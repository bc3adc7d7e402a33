/**
 * Replays the formula and rollup case tables of the formula engine (test/formulas) through the
 * HTTP API: formula properties are created with the tables' expressions on a data source whose
 * pages hold the fixtures' values, rollup properties with every function over related pages
 * holding the cases' inputs, and the computed values are read back from the pages. Cases that
 * need what a real data source cannot hold (a list of numbers, a fixed "now", made-up user or
 * page ids, duplicate multi_select options) are left to the engine's own tests.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { makeSharedPage } from '../helpers/factories.js';
import { compileFormula, toApiFormulaValue, type FormulaValue } from '../../src/domain/formulas/index.js';
import { formulaCases, type FormulaCase } from '../formulas/formulaCases.js';
import { rollupCases, type RollupCase } from '../formulas/rollupCases.js';
import { BASE_VALUES, PROPERTIES, TASKS, relatedSchemas } from '../formulas/fixtures.js';
import { fails, ok, text } from './helpers.js';

type Json = Record<string, any>;

const UNSUPPORTED = /now\(\)|today\(\)|id\(|"Owner"|"People"|"Tags"|"Scores"/;
const SCALAR_PROPS = new Set(['Name', 'Count', 'Price', 'Blank Number', 'Done', 'Text', 'Blank Text', 'Due', 'Meeting', 'Range', 'Blank Date', 'Tasks']);

function replayable(c: FormulaCase): boolean {
  if (UNSUPPORTED.test(c.expression) || c.expression.trim() === '') return false;
  for (const [name, value] of Object.entries(c.props ?? {})) {
    if (!SCALAR_PROPS.has(name)) return false;
    if (name === 'Tasks' && !(Array.isArray(value) && value.length === 0)) return false;
  }
  return true;
}

const richText = (s: string | null) => (s ? text(s) : []);

/** A page of the fixture schema holding BASE_VALUES with `props` over them. */
function pageValues(props: Record<string, FormulaValue>, taskIds: string[]): Json {
  const v = { ...BASE_VALUES, ...props } as Record<string, any>;
  const date = (d: any) => ({ date: d ? { start: d.start, end: d.end ?? null } : null });
  return {
    Name: { title: richText(v.Name) },
    Count: { number: v.Count },
    Price: { number: v.Price },
    'Blank Number': { number: v['Blank Number'] },
    Done: { checkbox: v.Done ?? false },
    Text: { rich_text: richText(v.Text) },
    'Blank Text': { rich_text: richText(v['Blank Text']) },
    Due: date(v.Due),
    Meeting: date(v.Meeting),
    Range: date(v.Range),
    'Blank Date': date(v['Blank Date']),
    Tasks: { relation: 'Tasks' in props ? [] : taskIds.map((id) => ({ id })) },
  };
}

/** Rollup values reduced to what both sides can agree on (option ids are the server's). */
function simplify(value: any): any {
  if (Array.isArray(value)) return value.map(simplify);
  if (!value || typeof value !== 'object') return typeof value === 'number' ? Math.round(value * 1e9) / 1e9 : value;
  if ('group' in value) return { n: simplify(value.number), group: value.group };
  const member = value[value.type];
  switch (value.type) {
    case 'title':
    case 'rich_text':
      return (member as Json[]).map((i) => i.plain_text ?? i.text?.content).join('');
    case 'select':
    case 'status':
      return member?.name ?? null;
    case 'multi_select':
      return (member as Json[]).map((o) => o.name);
    case 'date':
      return member ? { start: member.start, end: member.end ?? null } : null;
    case 'number':
      return simplify(member);
    case 'array':
      return { fn: value.function, array: simplify(value.array) };
    default:
      return member;
  }
}

const ROLLUP_TARGETS: Record<string, string> = {
  number: 'N',
  checkbox: 'C',
  title: 'T',
  rich_text: 'R',
  date: 'D',
  select: 'S',
  status: 'St',
  multi_select: 'M',
  url: 'U',
};

function rollupTarget(c: RollupCase): string | undefined {
  const types = new Set(c.inputs.map((i) => i.type));
  if (types.size === 0) return 'N';
  if (types.size > 1) return undefined;
  return ROLLUP_TARGETS[[...types][0]];
}

function rollupPageValues(input: Json): Json {
  const m = input[input.type];
  switch (input.type) {
    case 'number':
      return { N: { number: m } };
    case 'checkbox':
      return { C: { checkbox: m } };
    case 'title':
      return { T: { title: (m as Json[]).map((i) => ({ text: { content: i.text.content } })) } };
    case 'rich_text':
      return { R: { rich_text: (m as Json[]).map((i) => ({ text: { content: i.text.content } })) } };
    case 'date':
      return { D: { date: m ? { start: m.start, end: m.end } : null } };
    case 'select':
      return { S: { select: m ? { name: m.name } : null } };
    case 'status':
      return { St: { status: { name: m.name } } };
    case 'multi_select':
      return { M: { multi_select: (m as Json[]).map((o) => ({ name: o.name })) } };
    case 'url':
      return { U: { url: m } };
    default:
      throw new Error(`no rollup target for ${input.type}`);
  }
}

describe('formula and rollup case tables through the API', () => {
  const { server, fx } = useServer();
  let root: Json;
  before(async () => {
    root = await makeSharedPage(server, fx);
  });

  const cases = formulaCases.filter(replayable);
  const valid = cases.filter((c) => c.error === undefined);
  const errors = cases.filter((c) => c.error !== undefined);
  const rollups = rollupCases.filter((c) => rollupTarget(c) !== undefined);

  test('enough cases are replayed, and every rollup function among them', () => {
    assert.ok(valid.length + errors.length + rollups.length >= 150, `${valid.length} + ${errors.length} + ${rollups.length}`);
    const functions = new Set(rollups.map((c) => c.fn));
    assert.equal(functions.size, 24, `functions replayed: ${[...functions].join(', ')}`);
  });

  test('formula cases: values computed by the server', async () => {
    const taskDb = await ok(server, fx, 'POST', '/v1/databases', {
      parent: { page_id: root.id },
      title: text('Tasks'),
      initial_data_source: { properties: { Name: { title: {} }, Status: { select: {} }, Points: { number: {} }, Done: { checkbox: {} }, Due: { date: {} } } },
    });
    const taskIds: string[] = [];
    for (const t of TASKS) {
      const task = await ok(server, fx, 'POST', '/v1/pages', {
        parent: { data_source_id: taskDb.data_sources[0].id },
        properties: {
          Name: { title: text(t.Name) },
          Status: { select: { name: t.Status } },
          Points: { number: t.Points },
          Done: { checkbox: t.Done },
          Due: { date: t.Due ? { start: t.Due.start } : null },
        },
      });
      taskIds.push(task.id);
    }
    const schema: Json = {
      Name: { title: {} },
      Count: { number: {} },
      Price: { number: {} },
      'Blank Number': { number: {} },
      Done: { checkbox: {} },
      Text: { rich_text: {} },
      'Blank Text': { rich_text: {} },
      Due: { date: {} },
      Meeting: { date: {} },
      Range: { date: {} },
      'Blank Date': { date: {} },
      Tasks: { relation: { data_source_id: taskDb.data_sources[0].id, single_property: {} } },
    };
    const db = await ok(server, fx, 'POST', '/v1/databases', {
      parent: { page_id: root.id },
      title: text('Formulas'),
      initial_data_source: { properties: schema },
    });
    const sourceId = db.data_sources[0].id;
    const formulas: Json = {};
    valid.forEach((c, i) => (formulas[`f${i}`] = { formula: { expression: c.expression } }));
    await ok(server, fx, 'PATCH', `/v1/data_sources/${sourceId}`, { properties: formulas });

    const pagesByProps = new Map<string, Json>();
    const failures: string[] = [];
    for (const [i, c] of valid.entries()) {
      const key = JSON.stringify(c.props ?? {});
      let page = pagesByProps.get(key);
      if (!page) {
        page = await ok(server, fx, 'POST', '/v1/pages', { parent: { data_source_id: sourceId }, properties: pageValues(c.props ?? {}, taskIds) });
        pagesByProps.set(key, page);
      }
      const compiled = compileFormula(c.expression, PROPERTIES, relatedSchemas);
      assert.ok(compiled.ok);
      const expected = c.api ?? toApiFormulaValue(c.expected ?? null, compiled.formula.resultType);
      const actual = page.properties[`f${i}`].formula;
      if (JSON.stringify(simplify(actual)) !== JSON.stringify(simplify(expected)) && JSON.stringify(actual) !== JSON.stringify(expected)) {
        failures.push(`${c.expression}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  test('formula cases: compile errors are validation errors with the position', async () => {
    const db = await ok(server, fx, 'POST', '/v1/databases', {
      parent: { page_id: root.id },
      title: text('Errors'),
      initial_data_source: {
        properties: {
          Name: { title: {} },
          Count: { number: {} },
          Done: { checkbox: {} },
          Text: { rich_text: {} },
          People: { people: {} },
          Tasks: {
            relation: {
              data_source_id: (
                await ok(server, fx, 'POST', '/v1/databases', { parent: { page_id: root.id }, initial_data_source: { properties: { Name: { title: {} } } } })
              ).data_sources[0].id,
              single_property: {},
            },
          },
        },
      },
    });
    for (const c of errors) {
      const res = await fails(server, fx, 'PATCH', `/v1/data_sources/${db.data_sources[0].id}`, {
        properties: { F: { formula: { expression: c.expression } } },
      });
      assert.equal(res.status, 400, c.expression);
      assert.equal(res.body.code, 'validation_error');
      assert.match(res.body.message, /body\.properties\.F\.formula\.expression should be a valid formula/);
      if (c.position !== undefined) assert.match(res.body.message, new RegExp(`at position ${c.position}\\)`), `${c.expression}: ${res.body.message}`);
    }
  });

  test('rollup cases: every function computed by the server over related pages', async () => {
    const values = await ok(server, fx, 'POST', '/v1/databases', {
      parent: { page_id: root.id },
      title: text('Values'),
      initial_data_source: {
        properties: {
          T: { title: {} },
          N: { number: {} },
          C: { checkbox: {} },
          R: { rich_text: {} },
          D: { date: {} },
          S: { select: {} },
          St: { status: { options: [{ name: 'Done' }, { name: 'Todo' }] } },
          M: { multi_select: {} },
          U: { url: {} },
        },
      },
    });
    const valuesId = values.data_sources[0].id;
    const properties: Json = { Case: { title: {} }, Rel: { relation: { data_source_id: valuesId, single_property: {} } } };
    const names = new Map<RollupCase, string>();
    for (const c of rollups) {
      const name = `${c.fn}:${rollupTarget(c)}`;
      names.set(c, name);
      properties[name] = { rollup: { relation_property_name: 'Rel', rollup_property_name: rollupTarget(c), function: c.fn } };
    }
    const db = await ok(server, fx, 'POST', '/v1/databases', { parent: { page_id: root.id }, title: text('Rollups'), initial_data_source: { properties } });
    const failures: string[] = [];
    for (const c of rollups) {
      const related: Json[] = [];
      for (const input of c.inputs)
        related.push(await ok(server, fx, 'POST', '/v1/pages', { parent: { data_source_id: valuesId }, properties: rollupPageValues(input) }));
      const page = await ok(server, fx, 'POST', '/v1/pages', {
        parent: { data_source_id: db.data_sources[0].id },
        properties: { Case: { title: text(c.name) }, Rel: { relation: related.map((r) => ({ id: r.id })) } },
      });
      const actual = page.properties[names.get(c)!].rollup;
      const want = simplify(c.expected.type === 'array' ? c.expected : c.expected);
      if (JSON.stringify(simplify(actual)) !== JSON.stringify(want))
        failures.push(`${c.name}: expected ${JSON.stringify(want)}, got ${JSON.stringify(simplify(actual))}`);
    }
    assert.deepEqual(failures, []);
  });
});
