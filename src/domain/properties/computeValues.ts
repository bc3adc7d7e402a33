import type { Db } from '../../storage/db.js';
import type { ObjectRow, UserRow } from '../../storage/schema.js';
import type { FormulaValue, PageValue } from '../formulas/index.js';
import { toApiFormulaValue } from '../formulas/index.js';
import { computeRollup } from '../rollups/index.js';
import { parseContent, type DataSourceContent } from '../contentShapes.js';
import { plainText, type RichTextItem } from '../richText.js';
import { emptyValue } from './emptyValue.js';
import { compileSchema, type CompiledSchema } from './formulaSchema.js';
import { toFormulaValue } from './formulaValues.js';
import { PROPERTY_TYPE_DEFINITIONS } from './registry.js';
import type { StoredValue } from './storedValue.js';
import type { FormulaWorld } from './types/definition.js';
import { configOf, type RelationConfig, type RollupConfig, type Schema } from './schemaTypes.js';
import { findObjects } from '../../storage/repositories/objects.js';
import { loadValues } from '../../storage/repositories/propertyValues.js';
import { loadWorkspaceUsers } from '../../storage/repositories/users.js';

interface LoadedPage {
  row: ObjectRow;
  values: Map<string, StoredValue>;
}

/** Everything computing a batch of pages reads, loaded up front so evaluation is synchronous. */
export interface ComputeEnv {
  now: Date;
  users: Map<string, UserRow>;
  schemas: Map<string, Schema>;
  pages: Map<string, LoadedPage>;
  compiled: Map<string, CompiledSchema>;
}

function schemaOf(row: ObjectRow): Schema {
  return parseContent<DataSourceContent>(row.content).properties as Schema;
}

async function loadPages(db: Db, env: ComputeEnv, ids: readonly string[]): Promise<LoadedPage[]> {
  const missing = ids.filter((id) => !env.pages.has(id));
  const rows = (await findObjects(db, missing)).filter((r) => r.object === 'page');
  const values = await loadValues(
    db,
    rows.map((r) => r.id),
  );
  for (const row of rows) {
    const byProperty = new Map<string, StoredValue>();
    for (const v of values.get(row.id) ?? []) byProperty.set(v.property_id, JSON.parse(v.value) as StoredValue);
    env.pages.set(row.id, { row, values: byProperty });
  }
  return ids.map((id) => env.pages.get(id)).filter((p): p is LoadedPage => p !== undefined);
}

async function loadSchemas(db: Db, env: ComputeEnv, ids: Iterable<string>): Promise<void> {
  const missing = [...new Set(ids)].filter((id) => !env.schemas.has(id));
  for (const row of await findObjects(db, missing)) if (row.object === 'data_source') env.schemas.set(row.id, schemaOf(row));
}

function relationTargets(schema: Schema | undefined): string[] {
  return Object.values(schema ?? {})
    .filter((p) => p.type === 'relation')
    .map((p) => configOf<RelationConfig>(p).data_source_id);
}

/**
 * Loads the pages, their schemas, the pages they relate to (with their schemas) and the
 * workspace's users. `now` is what now() and today() read: the command's clock, so a fixed test
 * clock governs formulas too. `overrides` are schemas not yet saved (a schema being edited).
 */
export async function loadComputeEnv(
  db: Db,
  workspaceId: string,
  pageIds: readonly string[],
  now: Date,
  overrides: ReadonlyMap<string, Schema> = new Map(),
): Promise<ComputeEnv> {
  const env: ComputeEnv = { now, users: new Map(), schemas: new Map(overrides), pages: new Map(), compiled: new Map() };
  await includePages(db, env, pageIds);
  for (const user of await loadWorkspaceUsers(db, workspaceId)) env.users.set(user.id, user);
  return env;
}

/** Adds pages to an environment with what computing them reads; what is loaded already is kept. */
export async function includePages(db: Db, env: ComputeEnv, pageIds: readonly string[]): Promise<void> {
  const pages = await loadPages(db, env, pageIds);
  await loadSchemas(
    db,
    env,
    pages.map((p) => p.row.parent_id!),
  );
  const targets = new Set<string>();
  const related = new Set<string>();
  for (const page of pages) {
    const schema = env.schemas.get(page.row.parent_id!);
    for (const property of Object.values(schema ?? {})) {
      if (property.type !== 'relation') continue;
      targets.add(configOf<RelationConfig>(property).data_source_id);
      for (const r of (page.values.get(property.id)?.relation as { id: string }[] | undefined) ?? []) related.add(r.id);
    }
  }
  await loadSchemas(db, env, targets);
  // Formulas of the related data sources may read one more level of relations when typing.
  await loadSchemas(
    db,
    env,
    [...targets].flatMap((t) => relationTargets(env.schemas.get(t))),
  );
  const relatedPages = await loadPages(db, env, [...related]);
  await loadSchemas(
    db,
    env,
    relatedPages.map((p) => p.row.parent_id!),
  );
}

function compiledFor(env: ComputeEnv, dataSourceId: string): CompiledSchema {
  let compiled = env.compiled.get(dataSourceId);
  if (!compiled) {
    compiled = compileSchema(env.schemas.get(dataSourceId) ?? {}, (id) => env.schemas.get(id));
    env.compiled.set(dataSourceId, compiled);
  }
  return compiled;
}

function worldOf(env: ComputeEnv): FormulaWorld {
  const world: FormulaWorld = {
    users: env.users,
    page: (id) => {
      const page = env.pages.get(id);
      // A page in the trash has left the relations of other pages until it is restored.
      if (!page || page.row.in_trash === 1) return undefined;
      const schema = env.schemas.get(page.row.parent_id ?? '') ?? {};
      const value: PageValue = {
        kind: 'page',
        id,
        title: page.row.title,
        getProperty: (name) => {
          const property = Object.values(schema).find((p) => p.name === name);
          return property ? toFormulaValue(page.values.get(property.id), world) : null;
        },
      };
      return value;
    },
  };
  return world;
}

function rollupValue(env: ComputeEnv, schema: Schema, page: LoadedPage, config: RollupConfig): StoredValue {
  const relation = schema[config.relation_property_id];
  const nothing: StoredValue = { type: 'rollup', rollup: { type: 'number', number: null, function: config.function } };
  if (!relation || relation.type !== 'relation') return nothing;
  const target = env.schemas.get(configOf<RelationConfig>(relation).data_source_id)?.[config.rollup_property_id];
  if (!target) return nothing;
  const inputs = ((page.values.get(relation.id)?.relation as { id: string }[] | undefined) ?? []).flatMap((r) => {
    const related = env.pages.get(r.id);
    // Rollups ignore related pages in the trash, as the relation does.
    return related && related.row.in_trash === 0 ? [related.values.get(target.id) ?? emptyValue(target)] : [];
  });
  return { type: 'rollup', rollup: computeRollup(config.function, inputs) };
}

/**
 * Computes every computed property of one loaded page: timestamps and authors from its row,
 * rollups over its related pages, then formulas (each formula evaluated once, on demand, so a
 * formula reading another sees its fresh result). Returns the values that changed; the page's
 * loaded values are updated in place, so pages computed later in the batch see them. With
 * `only`, just those properties are computed; other formulas they read keep their loaded value.
 */
export function computePage(env: ComputeEnv, pageId: string, only?: ReadonlySet<string>): Map<string, StoredValue> {
  const page = env.pages.get(pageId);
  const changed = new Map<string, StoredValue>();
  if (!page || page.row.parent_type !== 'data_source_id') return changed;
  const dataSourceId = page.row.parent_id!;
  const schema = env.schemas.get(dataSourceId) ?? {};
  const set = (propertyId: string, value: StoredValue) => {
    const before = page.values.get(propertyId);
    if (!before || JSON.stringify(before) !== JSON.stringify(value)) changed.set(propertyId, value);
    page.values.set(propertyId, value);
  };
  const { row } = page;
  for (const property of Object.values(schema)) {
    if (only && !only.has(property.id)) continue;
    const { fromRow } = PROPERTY_TYPE_DEFINITIONS[property.type].page;
    if (fromRow) {
      const cell = row[fromRow.column];
      set(property.id, { type: property.type, [property.type]: fromRow.as === 'timestamp' ? cell : { object: 'user', id: cell } });
    } else if (property.type === 'rollup') {
      set(property.id, rollupValue(env, schema, page, configOf<RollupConfig>(property)));
    } else if (!page.values.has(property.id) && property.type !== 'formula') {
      set(property.id, emptyValue(property));
    }
  }
  const compiled = compiledFor(env, dataSourceId);
  const world = worldOf(env);
  const results = new Map<string, FormulaValue>();
  const evaluating = new Set<string>();
  const formulaOf = (propertyId: string): FormulaValue => {
    if (results.has(propertyId)) return results.get(propertyId)!;
    const result = compiled.formulas.get(propertyId);
    if (!result || !result.ok || evaluating.has(propertyId)) return null;
    evaluating.add(propertyId);
    const value = result.formula.evaluate({
      now: env.now,
      pageId,
      getProperty: (name) => {
        const property = Object.values(schema).find((p) => p.name === name) ?? schema[name];
        if (!property) return null;
        if (property.type === 'formula' && (!only || only.has(property.id))) return formulaOf(property.id);
        return toFormulaValue(page.values.get(property.id), world);
      },
    });
    evaluating.delete(propertyId);
    results.set(propertyId, value);
    return value;
  };
  for (const property of Object.values(schema)) {
    if (property.type !== 'formula' || (only && !only.has(property.id))) continue;
    const result = compiled.formulas.get(property.id);
    const api = result?.ok ? toApiFormulaValue(formulaOf(property.id), result.formula.resultType) : { type: 'string', string: null };
    set(property.id, { type: 'formula', formula: api });
  }
  return changed;
}

export function titleOf(values: ReadonlyMap<string, StoredValue>, schema: Schema): string {
  const title = Object.values(schema).find((p) => p.type === 'title');
  const value = title ? values.get(title.id) : undefined;
  return value ? plainText(value.title as RichTextItem[]) : '';
}
