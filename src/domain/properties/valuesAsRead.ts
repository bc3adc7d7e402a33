import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import { findTrashedItems, type PresentedValueRow } from '../../storage/repositories/propertyValues.js';
import { computePage, includePages, loadComputeEnv, type ComputeEnv } from './computeValues.js';
import { isTimeDependent, referencedNames } from './formulaSchema.js';
import type { StoredValue } from './storedValue.js';
import { configOf, type Property, type RelationConfig, type RollupConfig, type Schema } from './schemaTypes.js';

/** How far marked values are followed through relations at a read, as refreshComputed does at a write. */
const MAX_HOPS = 6;

/** Per schema object (parsed schemas are shared and never changed in place): asked once per page of every read. */
const marksBySchema = new WeakMap<Schema, ReadonlySet<string>>();

function markedIn(schema: Schema | undefined): ReadonlySet<string> {
  if (!schema) return new Set();
  let marks = marksBySchema.get(schema);
  if (!marks) {
    marks = new Set(
      Object.values(schema)
        .filter(isTimeDependent)
        .map((p) => p.id),
    );
    marksBySchema.set(schema, marks);
  }
  return marks;
}

/** Relations through which a marked property of `schema` reads related pages. */
function relationsFeedingMarks(schema: Schema, marked: ReadonlySet<string>): Property[] {
  const read = new Set<string>();
  for (const id of marked) {
    const property = schema[id];
    if (property.type === 'rollup') read.add(configOf<RollupConfig>(property).relation_property_id);
    else for (const name of referencedNames(configOf<{ expression: string }>(property).expression)) read.add(name);
  }
  return Object.values(schema).filter((p) => p.type === 'relation' && (read.has(p.id) || read.has(p.name)));
}

/**
 * Recomputes the time-dependent values (formulaSchema's marks) of `pages` as of `now`. The related
 * pages whose marked values they read are recomputed first, farthest first, so a rollup of a
 * related now() is as fresh as the now() itself. Nothing is loaded when no schema has a mark.
 */
async function recomputeTimeDependent(
  db: Db,
  pages: readonly ObjectRow[],
  schemas: ReadonlyMap<string, Schema>,
  now: Date,
): Promise<Map<string, Map<string, StoredValue>>> {
  const fresh = new Map<string, Map<string, StoredValue>>();
  const seeds = pages.filter((p) => p.parent_type === 'data_source_id' && markedIn(schemas.get(p.parent_id!)).size > 0);
  if (seeds.length === 0) return fresh;
  const env: ComputeEnv = await loadComputeEnv(
    db,
    seeds[0].workspace_id,
    seeds.map((p) => p.id),
    now,
  );
  const order: string[] = [];
  const seen = new Set(seeds.map((p) => p.id));
  let level = [...seen];
  for (let hop = 0; hop < MAX_HOPS && level.length > 0; hop++) {
    order.push(...level);
    const next: string[] = [];
    for (const id of level) {
      const page = env.pages.get(id);
      const schema = page ? env.schemas.get(page.row.parent_id!) : undefined;
      if (!page || !schema) continue;
      for (const relation of relationsFeedingMarks(schema, markedIn(schema))) {
        if (markedIn(env.schemas.get(configOf<RelationConfig>(relation).data_source_id)).size === 0) continue;
        for (const { id: related } of (page.values.get(relation.id)?.relation as { id: string }[] | undefined) ?? []) {
          if (!seen.has(related)) next.push(related);
          seen.add(related);
        }
      }
    }
    if (next.length > 0) await includePages(db, env, next);
    level = next;
  }
  for (const id of order.reverse()) {
    const page = env.pages.get(id);
    if (!page || page.row.parent_type !== 'data_source_id') continue;
    computePage(env, id, markedIn(env.schemas.get(page.row.parent_id!)));
  }
  for (const page of seeds) {
    const loaded = env.pages.get(page.id);
    if (!loaded) continue;
    const marked = markedIn(schemas.get(page.parent_id!));
    fresh.set(page.id, new Map([...loaded.values].filter(([propertyId]) => marked.has(propertyId))));
  }
  return fresh;
}

/** Per schema object, as marks are: the ids of its relation properties. */
const relationsBySchema = new WeakMap<Schema, readonly string[]>();

function relationIdsOf(schema: Schema): readonly string[] {
  let ids = relationsBySchema.get(schema);
  if (!ids) {
    ids = Object.values(schema)
      .filter((p) => p.type === 'relation')
      .map((p) => p.id);
    relationsBySchema.set(schema, ids);
  }
  return ids;
}

/**
 * Property values of `pages` as a reader sees them at `now` (issue 3: every computed value
 * is right after any change of its inputs). Stored values are right as of the last write, except
 * for two inputs that change without a write of the page: the clock, so time-dependent formulas
 * and rollups are recomputed here; and the trash, so related pages in the trash are left out of
 * relation values (they stay stored, so a restore brings them back). `schemas` are the schemas of
 * the pages' data sources; `now` is the command's clock. The property_values columns keep the values of the last write.
 * A page none of this touches keeps its stored rows as they are (the same array).
 */
export async function valuesAsRead<Row extends PresentedValueRow>(
  db: Db,
  pages: readonly ObjectRow[],
  stored: ReadonlyMap<string, readonly Row[]>,
  schemas: ReadonlyMap<string, Schema>,
  now: Date,
): Promise<Map<string, Row[]>> {
  const fresh = await recomputeTimeDependent(db, pages, schemas, now);
  const relationIds = new Set<string>();
  for (const page of pages) {
    const schema = page.parent_type === 'data_source_id' ? schemas.get(page.parent_id!) : undefined;
    if (schema) for (const id of relationIdsOf(schema)) relationIds.add(id);
  }
  // Page id → relation property id → related pages in the trash.
  const trashed = new Map<string, Map<string, Set<string>>>();
  const items = await findTrashedItems(
    db,
    pages.map((p) => p.id),
    [...relationIds],
  );
  for (const { page_id, property_id, item } of items) {
    let byProperty = trashed.get(page_id);
    if (!byProperty) trashed.set(page_id, (byProperty = new Map()));
    let gone = byProperty.get(property_id);
    if (!gone) byProperty.set(property_id, (gone = new Set()));
    gone.add(item);
  }
  const result = new Map<string, Row[]>();
  for (const page of pages) {
    const rows = (stored.get(page.id) ?? []) as Row[];
    const recomputed = fresh.get(page.id);
    const gone = trashed.get(page.id);
    if (!recomputed && !gone) {
      result.set(page.id, rows);
      continue;
    }
    const schema = page.parent_type === 'data_source_id' ? schemas.get(page.parent_id!) : undefined;
    const values = rows.map((row) => {
      const value = recomputed?.get(row.property_id);
      if (value) return { ...row, value: JSON.stringify(value) };
      const hidden = gone?.get(row.property_id);
      // An id that is a relation in another data source's schema is not one here.
      if (!hidden || schema?.[row.property_id]?.type !== 'relation') return row;
      const relation = JSON.parse(row.value) as StoredValue;
      const list = (Array.isArray(relation.relation) ? relation.relation : []) as { id: string }[];
      return { ...row, value: JSON.stringify({ ...relation, relation: list.filter((r) => !hidden.has(r.id)) }) };
    });
    result.set(page.id, values);
  }
  return result;
}
