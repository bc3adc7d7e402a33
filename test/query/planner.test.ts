import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type RawBuilder } from 'kysely';
import { SQLITE } from '../../src/storage/dialect.js';
import { afterKeys, selectPage, type OrderTerm } from '../../src/storage/query/selectPage.js';
import { aliasMaker } from '../../src/storage/query/sqlPieces.js';
import { ValidationFailure } from '../../src/errors/validationFailure.js';
import type { CompileEnv } from '../../src/domain/query/compileEnv.js';
import { listingCursor, listingKey, readListingCursor, type ListingParts } from '../../src/domain/query/listingCursor.js';
import { orderTerms } from '../../src/domain/query/orderTerms.js';
import { parseSorts } from '../../src/domain/query/parseSorts.js';
import { indexHalves, readOrder, sortPath } from '../../src/domain/query/sortPath.js';
import { driveLimit, driveLimitOfSize, MAX_DRIVE_LIMIT, MIN_DRIVE_LIMIT, pickDriver, SORTED_DRIVE_LIMIT } from '../../src/domain/query/walkOrDrive.js';
import type { Schema } from '../../src/domain/properties/schemaTypes.js';

/** Compiles SQL pieces as SQLite would run them, without a database. */
const compiler = new Kysely<unknown>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});
const compile = (piece: RawBuilder<unknown>) => piece.compile(compiler);

const schema: Schema = {
  n1: { id: 'n1', name: 'Score', description: null, type: 'number', number: { format: 'number' } },
  t1: { id: 't1', name: 'Name', description: null, type: 'title', title: {} },
};

function env(): CompileEnv {
  return { dialect: SQLITE, now: new Date('2026-01-01T00:00:00Z'), me: null, schemaOf: () => schema, alias: aliasMaker(), sets: new Map() };
}

describe('query planner: walk or drive', () => {
  test('the drive limit is the crossover √(100·pages), between its bounds', () => {
    assert.equal(driveLimitOfSize(0), MIN_DRIVE_LIMIT);
    assert.equal(driveLimitOfSize(5000), MIN_DRIVE_LIMIT);
    assert.equal(driveLimitOfSize(100_000), 3163);
    assert.equal(driveLimitOfSize(1_000_000), MAX_DRIVE_LIMIT);
    assert.equal(driveLimitOfSize(50_000_000), MAX_DRIVE_LIMIT);
    // A view query reads up to 10,000 results at once: walking pays for each, so larger sets drive.
    assert.equal(driveLimitOfSize(5000, 10_000), 7072);
    assert.equal(driveLimitOfSize(100_000, 10_000), MAX_DRIVE_LIMIT);
    // Pages smaller than 100 keep a page's crossover: the count is remembered across page sizes.
    assert.equal(driveLimitOfSize(100_000, 10), 3163);
  });

  test('a sorted listing drives from a much larger set, without counting the data source', async () => {
    let counted = 0;
    const pages = () => {
      counted++;
      return Promise.resolve(100_000);
    };
    assert.equal(await driveLimit('sorted', pages), SORTED_DRIVE_LIMIT);
    assert.equal(counted, 0);
    assert.equal(await driveLimit('creation', pages), 3163);
    assert.equal(await driveLimit('index', pages), 3163);
    assert.equal(counted, 2);
  });

  test('the smallest countable set under the limit drives, the first of equals', () => {
    assert.equal(pickDriver([null, 500, 200, 200], 1000), 2);
    assert.equal(pickDriver([999, 1000], 1000), 0);
    assert.equal(pickDriver([1000, 5000], 1000), null, 'a set counted up to the limit walks');
    assert.equal(pickDriver([null, null], 1000), null);
    assert.equal(pickDriver([], 1000), null);
    assert.equal(pickDriver([0], 1000), 0, 'an empty set drives');
  });
});

describe('query planner: sort path', () => {
  test('the read order follows the sorts and the first sort’s index', () => {
    assert.equal(readOrder(false, false), 'creation');
    assert.equal(readOrder(true, true), 'index');
    assert.equal(readOrder(true, false), 'sorted');
  });

  test('the path for each order, walked or driven', () => {
    assert.deepEqual(sortPath('index', false), { halves: true, withRows: true });
    assert.deepEqual(sortPath('index', true), { halves: false, joinLead: true, withRows: false });
    assert.deepEqual(sortPath('sorted', false), { halves: false, joinLead: false, withRows: false });
    assert.deepEqual(sortPath('sorted', true), { halves: false, joinLead: false, withRows: false });
    assert.deepEqual(sortPath('creation', false), { halves: false, joinLead: false, withRows: true });
    assert.deepEqual(sortPath('creation', true), { halves: false, joinLead: false, withRows: false });
  });

  test('a cursor past the valued half skips it; one inside starts the index range at its key', () => {
    assert.deepEqual(indexHalves(null), { valued: true, fromKey: undefined });
    assert.deepEqual(indexHalves([null, '2026-01-01', 'id']), { valued: false, fromKey: null });
    assert.deepEqual(indexHalves([7, '2026-01-01', 'id']), { valued: true, fromKey: 7 });
  });

  test('without sorts the order is creation then id, and no index leads', () => {
    const e = env();
    const p = e.alias('p');
    const order = orderTerms([], p, 'ds', e);
    assert.equal(order.first, null);
    assert.deepEqual(
      order.terms.map((t) => [compile(t.expr).sql, t.descending, t.nullable]),
      [
        ['p0.created_time', false, false],
        ['p0.id', false, false],
      ],
    );
  });

  test('a sort led by a number reads its index: the statement starts from property_values_number', () => {
    const e = env();
    const p = e.alias('p');
    const sorts = parseSorts([{ property: 'Score', direction: 'descending' }], schema);
    const order = orderTerms(sorts, p, 'ds', e);
    assert.ok(order.first);
    assert.equal(order.first.column, 'number_value');
    assert.equal(order.first.index, 'property_values_number');
    assert.equal(order.first.propertyId, 'n1');
    assert.equal(order.terms.length, 3);
    assert.deepEqual(
      order.terms.map((t) => [t.descending, t.nullable]),
      [
        [true, true],
        [false, false],
        [false, false],
      ],
    );
    assert.equal(order.joins.length, 0, 'the led value is the first table, not a join');
    const statement = { terms: order.terms, joins: order.joins, where: [] };
    const valued = compile(selectPage(SQLITE, p, statement, 101, { first: order.first, nulls: false, dataSourceId: 'ds' }, true));
    assert.match(valued.sql, /FROM property_values s1 INDEXED BY property_values_number CROSS JOIN objects p0 WHERE s1\.data_source_id = \? AND/);
    assert.match(valued.sql, /ORDER BY k0 DESC, k1 ASC, k2 ASC LIMIT 101$/, 'no NULLS LAST on values read from the index');
    const empty = compile(selectPage(SQLITE, p, statement, 101, { first: order.first, nulls: true, dataSourceId: 'ds' }, true));
    assert.match(empty.sql, /FROM objects p0 LEFT JOIN property_values s1 ON .* WHERE s1\.number_value IS NULL ORDER BY k0 DESC NULLS LAST/);
  });

  test('a sort by the title is computed: no index leads, and the title is sorted', () => {
    const e = env();
    const order = orderTerms(parseSorts([{ property: 'Name', direction: 'ascending' }], schema), e.alias('p'), 'ds', e);
    assert.equal(order.first, null);
    assert.equal(readOrder(true, order.first !== null), 'sorted');
  });
});

describe('query planner: cursors', () => {
  const parts: ListingParts = { dataSourceId: 'ds', filter: null, sorts: [], inTrash: false, resultType: 'page' };

  test('the listing key is the same for the same listing and differs for another', () => {
    const key = listingKey(parts);
    assert.match(key, /^[A-Za-z0-9_-]{16}$/);
    assert.equal(listingKey({ ...parts }), key);
    // The key hashes the body's own spelling, so cursors issued before the planner moved still continue.
    const body = { source: 'ds', filter: null, sorts: [], in_trash: false, result_type: 'page' };
    assert.equal(key, createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 16));
    for (const other of [
      { ...parts, dataSourceId: 'other' },
      { ...parts, filter: { property: 'Score', number: { equals: 1 } } },
      { ...parts, sorts: [{ property: 'Score', direction: 'ascending' }] },
      { ...parts, inTrash: true },
      { ...parts, resultType: 'data_source' as const },
    ]) {
      assert.notEqual(listingKey(other), key, JSON.stringify(other));
    }
  });

  test('keys round trip through a cursor, with the count so far', () => {
    const listing = listingKey(parts);
    const keys = [null, 3.5, '2026-01-01T00:00:00.000Z', 'f0e1d2c3-0000-4000-8000-000000000000'];
    const cursor = listingCursor(listing, 200, keys);
    assert.deepEqual(readListingCursor(cursor, listing), { seen: 200, after: keys });
    assert.deepEqual(readListingCursor(undefined, listing), { seen: 0, after: null });
  });

  test('a cursor of another listing, or not a cursor, is refused', () => {
    const cursor = listingCursor(listingKey(parts), 100, ['a', 'b']);
    assert.throws(() => readListingCursor(cursor, listingKey({ ...parts, inTrash: true })), ValidationFailure);
    assert.throws(() => readListingCursor('not-a-cursor', listingKey(parts)), ValidationFailure);
    const forged = Buffer.from(JSON.stringify({ s: 'query', k: [listingKey(parts), -1, '[]'] })).toString('base64url');
    assert.throws(() => readListingCursor(forged, listingKey(parts)), ValidationFailure);
    const badKeys = Buffer.from(JSON.stringify({ s: 'query', k: [listingKey(parts), 1, '[{"x":1}]'] })).toString('base64url');
    assert.throws(() => readListingCursor(badKeys, listingKey(parts)), ValidationFailure);
  });

  test('rows after the cursor: the first differing term decides, empties last', () => {
    const e = env();
    const p = e.alias('p');
    const terms: OrderTerm[] = [
      { expr: p.col('k'), descending: true, nullable: true },
      { expr: p.col('id'), descending: false, nullable: false },
    ];
    const valued = compile(afterKeys(terms, [5, 'x']));
    assert.equal(valued.sql, '(p0.k IS NULL OR p0.k < ? OR (p0.k = ? AND (p0.id > ? OR (p0.id = ? AND 1 = 0))))');
    assert.deepEqual(valued.parameters, [5, 5, 'x', 'x']);
    const empty = compile(afterKeys(terms, [null, 'x']));
    assert.equal(empty.sql, '(p0.k IS NULL AND (p0.id > ? OR (p0.id = ? AND 1 = 0)))');
  });
});
