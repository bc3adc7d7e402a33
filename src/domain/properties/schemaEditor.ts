import type { Db } from '../../storage/db.js';
import type { Caller } from '../../auth/capabilities.js';
import type { ObjectRow } from '../../storage/schema.js';
import { isShared } from '../../storage/repositories/grants.js';
import { normalizeId } from '../../ids/ids.js';
import { assertMatches, PropertyRenameRequest, propertyConfigSchema } from '../../schemas/properties.js';
import { invalidField, type FieldPath } from '../../errors/validationFailure.js';
import { parseContent, type DataSourceContent } from '../contentShapes.js';
import { compileSchema, isTimeDependent, markTimeDependence, ownReferences, rewriteReferences, type OwnReference } from './formulaSchema.js';
import { PROPERTY_TYPE_DEFINITIONS } from './registry.js';
import { isPropertyType } from './propertyTypes.js';
import { PROPERTY_TYPES, type PropertyType } from '../../schemas/propertyTypes.js';
import { configOf, findProperty, newPropertyId, type Property, type RelationConfig, type RollupConfig, type Schema } from './schemaTypes.js';
import { dataSourcesMentioning, findObjects, listDataSourcesOf, lockRow } from '../../storage/repositories/objects.js';

/** A data source whose schema an edit touches: the one edited, or one on the other end of a relation. */
export interface EditedSource {
  id: string;
  databaseId: string;
  title: string;
  schema: Schema;
  row?: ObjectRow;
}

/** What an edit did to a data source's properties, for keeping page values in step. */
export interface SchemaEffects {
  deleted: Set<string>;
  /** Properties whose values start over (new, or of a new type or target). */
  reset: Set<string>;
  /** Select/status properties whose options changed: values are re-read against the options. */
  options: Set<string>;
  /** Relations that became dual: their partner's values are rebuilt from theirs. */
  newlyDual: Set<string>;
}

type Config = Record<string, unknown>;

interface Pending {
  property: Property;
  member: Config;
  path: FieldPath;
  previous?: Property;
}

const PROPERTIES_PATH_TYPES = PROPERTY_TYPES.map((t) => `"${t}"`).join(', ');

/** The type a property request names: `type`, else its one type-named member; null for a rename. */
function requestedType(config: Config, path: FieldPath): PropertyType | null {
  if (config.type !== undefined) {
    if (!isPropertyType(config.type)) throw invalidField([...path, 'type'], `should be one of ${PROPERTIES_PATH_TYPES}`, config.type);
    return config.type;
  }
  const named = Object.keys(config).filter(isPropertyType);
  if (named.length > 1) throw invalidField([...path, named[1]], `should be not present: a property has one type, and ${named[0]} was given`, config[named[1]]);
  return named[0] ?? null;
}

function markedIds(schema: Schema): string[] {
  return Object.values(schema)
    .filter(isTimeDependent)
    .map((p) => p.id);
}

function emptyEffects(): SchemaEffects {
  return { deleted: new Set(), reset: new Set(), options: new Set(), newlyDual: new Set() };
}

/**
 * Builds or changes data source schemas from request bodies (`properties` of create/update data
 * source and database). Checks every configuration against its type's schema, resolves relation
 * targets and rollup references, keeps both sides of dual relations in step, rewrites references
 * after renames and refuses formulas that do not compile, with their position.
 */
export class SchemaEditor {
  readonly sources = new Map<string, EditedSource>();
  readonly effects = new Map<string, SchemaEffects>();
  /** Data sources whose only change is a time mark: saved without touching their pages or edit time. */
  private readonly remarked = new Set<string>();
  /** Marked properties of each data source as loaded, to tell when an edit removed one. */
  private readonly markedAtLoad = new Map<string, string[]>();

  constructor(
    private readonly db: Db,
    private readonly caller: Caller,
    readonly self: EditedSource,
  ) {
    this.sources.set(self.id, self);
    this.markedAtLoad.set(self.id, markedIds(self.schema));
  }

  effectsOf(id: string): SchemaEffects {
    let e = this.effects.get(id);
    if (!e) {
      e = emptyEffects();
      this.effects.set(id, e);
    }
    return e;
  }

  /** Data sources other than `self` whose schema changed and must be saved. */
  touchedOthers(): EditedSource[] {
    return [...this.effects.keys()].filter((id) => id !== this.self.id).map((id) => this.sources.get(id)!);
  }

  /** Data sources other than `self`, not touched otherwise, whose time marks changed. */
  remarkedOthers(): EditedSource[] {
    return [...this.remarked].filter((id) => id !== this.self.id && !this.effects.has(id)).map((id) => this.sources.get(id)!);
  }

  private async source(id: string): Promise<EditedSource | undefined> {
    const known = this.sources.get(id);
    if (known) return known;
    // Locked before reading: a concurrent edit of the same schema waits instead of being lost.
    await lockRow(this.db, id);
    const [row] = await findObjects(this.db, [id]);
    if (!row || row.object !== 'data_source' || row.workspace_id !== this.caller.workspaceId) return undefined;
    const content = parseContent<DataSourceContent>(row.content);
    const source: EditedSource = { id, databaseId: row.parent_id!, title: row.title, schema: content.properties as Schema, row };
    this.sources.set(id, source);
    this.markedAtLoad.set(id, markedIds(source.schema));
    return source;
  }

  /** A relation target must be a data source shared with the connection (the related database must be shared). */
  private async relationTarget(member: Config, path: FieldPath): Promise<EditedSource> {
    const raw = (member.data_source_id ?? member.database_id) as string | undefined;
    const field = member.data_source_id !== undefined ? 'data_source_id' : 'database_id';
    if (raw === undefined) throw invalidField([...path, 'data_source_id'], 'should be defined', undefined);
    const id = normalizeId(raw)!;
    let target: EditedSource | undefined;
    if (field === 'database_id') {
      if (id === this.self.databaseId) target = this.self;
      else {
        const [first] = await listDataSourcesOf(this.db, id);
        target = first ? await this.source(first.id) : undefined;
      }
    } else {
      target = await this.source(id);
    }
    if (!target || (target !== this.self && !(await isShared(this.db, this.caller.connectionId, target.id)))) {
      throw invalidField([...path, field], `should be a ${field === 'database_id' ? 'database' : 'data source'} shared with the integration`, raw);
    }
    return target;
  }

  /** Creates the schema of a new data source. Without a title property, one named "Name" is added. */
  async create(request: Record<string, unknown>, path: FieldPath): Promise<void> {
    const pending: Pending[] = [];
    for (const [key, raw] of Object.entries(request)) {
      const at = [...path, key];
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalidField(at, 'should be an object', raw);
      const config = raw as Config;
      const type = requestedType(config, at);
      if (type === null) {
        const extra = Object.keys(config).find((k) => k !== 'name' && k !== 'description');
        if (extra !== undefined) throw invalidField([...at, extra], `should be not present: property types are ${PROPERTIES_PATH_TYPES}`, config[extra]);
        throw invalidField([...at, 'type'], `should be one of ${PROPERTIES_PATH_TYPES}`, undefined);
      }
      pending.push(this.newProperty(key, config, type, at));
    }
    if (!Object.values(this.self.schema).some((p) => p.type === 'title')) {
      const name = this.uniqueName(this.self.schema, 'Name');
      this.self.schema = { title: { id: 'title', name, description: null, type: 'title', title: {} }, ...this.self.schema };
    }
    await this.configureAll(pending);
    await this.markTimeDependence();
  }

  /**
   * Applies a PATCH: `null` deletes a property, `{name}` renames it, a configuration changes it
   * (or adds it, when the key names no property; the key is then its name).
   */
  async update(request: Record<string, unknown>, path: FieldPath): Promise<void> {
    const pending: Pending[] = [];
    const effects = this.effectsOf(this.self.id);
    for (const [key, raw] of Object.entries(request)) {
      const at = [...path, key];
      const existing = findProperty(this.self.schema, key);
      if (raw === null) {
        if (!existing) throw invalidField(at, 'should be the name or id of an existing property', key);
        await this.deleteProperty(this.self, existing, at);
        continue;
      }
      if (typeof raw !== 'object' || Array.isArray(raw)) throw invalidField(at, 'should be an object or `null`', raw);
      const config = raw as Config;
      const type = requestedType(config, at);
      if (!existing) {
        if (type === null) throw invalidField([...at, 'type'], `should be one of ${PROPERTIES_PATH_TYPES}`, undefined);
        pending.push(this.newProperty(key, config, type, at));
        continue;
      }
      if (type === null) assertMatches(PropertyRenameRequest, config, at);
      else assertMatches(propertyConfigSchema(type), config, at);
      if (config.description !== undefined) existing.description = config.description as string | null;
      if (typeof config.name === 'string' && config.name !== existing.name) await this.rename(this.self, existing, config.name, [...at, 'name']);
      if (type === null) continue;
      if (existing.type === 'title' && type !== 'title') throw invalidField([...at, 'type'], 'should be "title": the title property keeps its type', type);
      if (type === 'title' && existing.type !== 'title')
        throw invalidField([...at, 'type'], 'should not be "title": a data source has one title property', type);
      const previous = { ...existing };
      if (type !== existing.type) {
        if (existing.type === 'relation') await this.dropPartner(this.self, existing);
        delete existing[existing.type];
        existing.type = type;
        effects.reset.add(existing.id);
      }
      if (type === 'unique_id') this.assertOneUniqueId(existing, at);
      pending.push({ property: existing, member: (config[type] as Config | undefined) ?? {}, path: [...at, type], previous });
    }
    await this.configureAll(pending);
    await this.markTimeDependence();
  }

  /**
   * Recomputes the time marks (markTimeDependence) of every data source the edit touched, and of
   * the data sources relating to them, hop by hop while marks change: a rollup two relations away
   * from a now() follows it. Each data source is revisited a bounded number of times, so marks
   * chasing each other around a cycle of rollups stop.
   */
  private async markTimeDependence(): Promise<void> {
    const queue = [this.self.id, ...this.effects.keys()];
    const visits = new Map<string, number>();
    while (queue.length > 0) {
      const id = queue.shift()!;
      const count = visits.get(id) ?? 0;
      if (count >= 3) continue;
      visits.set(id, count + 1);
      const source = await this.source(id);
      if (!source) continue;
      await this.loadRelationTargets(source);
      const changed = markTimeDependence(source.schema, (other) => this.sources.get(other)?.schema, source.id);
      if (changed) this.remarked.add(id);
      // A marked property deleted, or turned into another type, leaves no mark to change.
      const lost = count === 0 && (this.markedAtLoad.get(id) ?? []).some((pid) => !isTimeDependent(source.schema[pid]));
      if (!changed && !lost) continue;
      for (const row of await dataSourcesMentioning(this.db, this.caller.workspaceId, id)) if (row.id !== id) queue.push(row.id);
    }
  }

  private async loadRelationTargets(source: EditedSource): Promise<void> {
    for (const p of Object.values(source.schema)) if (p.type === 'relation' && p.relation) await this.source(configOf<RelationConfig>(p).data_source_id);
  }

  private uniqueName(schema: Schema, wanted: string): string {
    const taken = new Set(Object.values(schema).map((p) => p.name));
    if (!taken.has(wanted)) return wanted;
    for (let n = 2; ; n++) if (!taken.has(`${wanted} ${n}`)) return `${wanted} ${n}`;
  }

  private assertOneUniqueId(property: Property, at: FieldPath): void {
    if (Object.values(this.self.schema).some((p) => p.type === 'unique_id' && p.id !== property.id)) {
      throw invalidField([...at, 'unique_id'], 'should be not present: a data source has at most one unique_id property', property.name);
    }
  }

  private newProperty(key: string, config: Config, type: PropertyType, at: FieldPath): Pending {
    assertMatches(propertyConfigSchema(type), config, at);
    const schema = this.self.schema;
    const name = typeof config.name === 'string' ? config.name : key;
    if (Object.values(schema).some((p) => p.name === name)) throw invalidField(at, 'should name a property only once', name);
    if (type === 'title' && Object.values(schema).some((p) => p.type === 'title')) {
      throw invalidField([...at, 'title'], 'should be not present: a data source has one title property', config.title);
    }
    const id = type === 'title' ? 'title' : newPropertyId(Object.keys(schema));
    const property: Property = { id, name, description: (config.description as string | null | undefined) ?? null, type };
    schema[id] = property;
    if (type === 'unique_id') this.assertOneUniqueId(property, at);
    this.effectsOf(this.self.id).reset.add(id);
    return { property, member: (config[type] as Config | undefined) ?? {}, path: [...at, type] };
  }

  /** Plain configurations first, then relations, then rollups (they read relations), then formulas. */
  private async configureAll(pending: Pending[]): Promise<void> {
    const order = (p: Pending) => (p.property.type === 'relation' ? 1 : p.property.type === 'rollup' ? 2 : p.property.type === 'formula' ? 3 : 0);
    const effects = this.effectsOf(this.self.id);
    for (const item of [...pending].sort((a, b) => order(a) - order(b))) {
      const { property, member, path, previous } = item;
      const existing = previous && previous.type === property.type ? previous[property.type] : undefined;
      if (property.type === 'relation') await this.configureRelation(property, member, path, existing as RelationConfig | undefined);
      else if (property.type === 'rollup') await this.configureRollup(property, member, path);
      else {
        property[property.type] = PROPERTY_TYPE_DEFINITIONS[property.type].configure(member, existing, path);
        if (PROPERTY_TYPE_DEFINITIONS[property.type].optionValues && existing) effects.options.add(property.id);
      }
    }
    await this.checkFormulas(pending.filter((p) => p.property.type === 'formula'));
  }

  private async checkFormulas(changed: Pending[]): Promise<void> {
    if (changed.length === 0) return;
    // Formulas read related pages' properties (`current.prop("…")`): their schemas type them.
    await this.loadRelationTargets(this.self);
    const compiled = compileSchema(this.self.schema, (id) => this.sources.get(id)?.schema);
    for (const { property, path } of changed) {
      const result = compiled.formulas.get(property.id);
      if (result && !result.ok) {
        const expression = (property.formula as { expression: string }).expression;
        throw invalidField([...path, 'expression'], `should be a valid formula (${result.message} at position ${result.position})`, expression);
      }
    }
  }

  private async configureRelation(property: Property, member: Config, path: FieldPath, existing: RelationConfig | undefined): Promise<void> {
    const target = await this.relationTarget(member, path);
    const wantsDual = member.type === 'dual_property' || (member.type === undefined && member.dual_property !== undefined);
    if (member.type === 'dual_property' && member.single_property !== undefined)
      throw invalidField([...path, 'single_property'], 'should be not present', member.single_property);
    if (member.type === 'single_property' && member.dual_property !== undefined)
      throw invalidField([...path, 'dual_property'], 'should be not present', member.dual_property);
    const sameTarget = existing && existing.data_source_id === target.id;
    if (existing && !sameTarget) this.effectsOf(this.self.id).reset.add(property.id);
    if (existing?.type === 'dual_property' && (!sameTarget || !wantsDual)) await this.dropPartner(this.self, property, existing);
    const base = { database_id: target.databaseId, data_source_id: target.id };
    if (!wantsDual) {
      property.relation = { ...base, type: 'single_property', single_property: {} } satisfies RelationConfig;
      return;
    }
    if (existing?.type === 'dual_property' && sameTarget && existing.dual_property) {
      property.relation = { ...base, type: 'dual_property', dual_property: existing.dual_property } satisfies RelationConfig;
      return;
    }
    const dual = (member.dual_property as { synced_property_name?: string; synced_property_id?: string } | undefined) ?? {};
    let partner = dual.synced_property_id ? target.schema[dual.synced_property_id] : undefined;
    if (partner && partner.type !== 'relation')
      throw invalidField(
        [...path, 'dual_property', 'synced_property_id'],
        'should be the id of a relation property of the related data source',
        dual.synced_property_id,
      );
    if (!partner) {
      const name = this.uniqueName(target.schema, dual.synced_property_name ?? `Related to ${this.self.title || 'Untitled'} (${property.name})`);
      partner = { id: newPropertyId([...Object.keys(target.schema), property.id]), name, description: null, type: 'relation' };
      target.schema[partner.id] = partner;
      this.effectsOf(target.id).reset.add(partner.id);
    }
    partner.relation = {
      database_id: this.self.databaseId,
      data_source_id: this.self.id,
      type: 'dual_property',
      dual_property: { synced_property_id: property.id, synced_property_name: property.name },
    } satisfies RelationConfig;
    property.relation = {
      ...base,
      type: 'dual_property',
      dual_property: { synced_property_id: partner.id, synced_property_name: partner.name },
    } satisfies RelationConfig;
    if (existing) this.effectsOf(this.self.id).newlyDual.add(property.id);
  }

  private async configureRollup(property: Property, member: Config, path: FieldPath): Promise<void> {
    const schema = this.self.schema;
    const relationKey = (member.relation_property_id ?? member.relation_property_name) as string | undefined;
    const relationField = member.relation_property_id !== undefined ? 'relation_property_id' : 'relation_property_name';
    if (relationKey === undefined) throw invalidField([...path, 'relation_property_name'], 'should be defined', undefined);
    const relation = relationField === 'relation_property_id' ? schema[relationKey] : Object.values(schema).find((p) => p.name === relationKey);
    if (!relation || relation.type !== 'relation')
      throw invalidField([...path, relationField], 'should name a relation property of this data source', relationKey);
    const target = await this.source(configOf<RelationConfig>(relation).data_source_id);
    const rolledKey = (member.rollup_property_id ?? member.rollup_property_name) as string | undefined;
    const rolledField = member.rollup_property_id !== undefined ? 'rollup_property_id' : 'rollup_property_name';
    if (rolledKey === undefined) throw invalidField([...path, 'rollup_property_name'], 'should be defined', undefined);
    const rolled = target && (rolledField === 'rollup_property_id' ? target.schema[rolledKey] : Object.values(target.schema).find((p) => p.name === rolledKey));
    if (!rolled) throw invalidField([...path, rolledField], 'should name a property of the related data source', rolledKey);
    property.rollup = {
      function: member.function as RollupConfig['function'],
      relation_property_id: relation.id,
      relation_property_name: relation.name,
      rollup_property_id: rolled.id,
      rollup_property_name: rolled.name,
    } satisfies RollupConfig;
  }

  /** Removes the other side of a dual relation (the service deletes both sides together). */
  private async dropPartner(owner: EditedSource, property: Property, config = configOf<RelationConfig>(property)): Promise<void> {
    if (config.type !== 'dual_property' || !config.dual_property) return;
    const target = await this.source(config.data_source_id);
    const partner = target?.schema[config.dual_property.synced_property_id];
    if (!target || !partner || partner.type !== 'relation') return;
    const back = configOf<RelationConfig>(partner);
    if (back.data_source_id !== owner.id || back.dual_property?.synced_property_id !== property.id) return;
    delete target.schema[partner.id];
    this.effectsOf(target.id).deleted.add(partner.id);
  }

  /**
   * Deletes a property. Formulas still naming it stop compiling and their values empty, wherever
   * they are: pages of data sources reading it through a relation are recomputed like the pages
   * of its own data source.
   */
  private async deleteProperty(owner: EditedSource, property: Property, at: FieldPath): Promise<void> {
    if (property.type === 'title') throw invalidField(at, 'should not be `null`: the title property cannot be deleted', null);
    if (property.type === 'relation') await this.dropPartner(owner, property);
    const readers = new Set((await this.formulasReading(owner, property)).map((r) => r.source));
    for (const source of await this.rollupsOf(owner, property)) readers.add(source.source);
    delete owner.schema[property.id];
    this.effectsOf(owner.id).deleted.add(property.id);
    for (const source of readers) this.effectsOf(source.id);
  }

  /** Data sources relating to `owner` (other than itself), loaded. */
  private async sourcesRelatingTo(owner: EditedSource): Promise<EditedSource[]> {
    const found: EditedSource[] = [];
    for (const row of await dataSourcesMentioning(this.db, this.caller.workspaceId, owner.id)) {
      const source = row.id === owner.id ? undefined : await this.source(row.id);
      if (source) found.push(source);
    }
    return found;
  }

  /**
   * The formulas that name `property` (not by id): in its own data source, and through a relation
   * to its data source in any data source, with where in the expression they name it. They are
   * found by compiling, so while the name still resolves. A formula of its own data source that
   * does not compile is searched by parsing alone (its own page's reads).
   */
  private async formulasReading(owner: EditedSource, property: Property): Promise<{ source: EditedSource; formula: Property; references: OwnReference[] }[]> {
    const found: { source: EditedSource; formula: Property; references: OwnReference[] }[] = [];
    for (const source of [owner, ...(await this.sourcesRelatingTo(owner))]) {
      const formulas = Object.values(source.schema).filter((p) => p.type === 'formula' && p.formula !== undefined && p.id !== property.id);
      if (formulas.length === 0) continue;
      await this.loadRelationTargets(source);
      const compiled = compileSchema(source.schema, (id) => this.sources.get(id)?.schema);
      const targetOf = (relationName: string) => {
        const relation = Object.values(source.schema).find((p) => p.name === relationName && p.type === 'relation');
        return relation?.relation ? configOf<RelationConfig>(relation).data_source_id : undefined;
      };
      for (const formula of formulas) {
        const result = compiled.formulas.get(formula.id);
        const references = result?.ok
          ? result.formula.references.filter(
              (r) => r.id === property.id && r.literal === property.name && (r.relation === null ? source === owner : targetOf(r.relation) === owner.id),
            )
          : source === owner
            ? ownReferences(configOf<{ expression: string }>(formula).expression).filter((r) => r.literal === property.name)
            : [];
        if (references.length > 0) found.push({ source, formula, references });
      }
    }
    return found;
  }

  /** Rollups over `property`, through a relation to its data source (from any data source, itself included). */
  private async rollupsOf(owner: EditedSource, property: Property): Promise<{ source: EditedSource; rollup: RollupConfig }[]> {
    const found: { source: EditedSource; rollup: RollupConfig }[] = [];
    for (const source of [owner, ...(await this.sourcesRelatingTo(owner))]) {
      for (const p of Object.values(source.schema)) {
        if (p.type !== 'rollup' || !p.rollup) continue;
        const config = configOf<RollupConfig>(p);
        const relation = source.schema[config.relation_property_id];
        if (relation?.type === 'relation' && configOf<RelationConfig>(relation).data_source_id === owner.id && config.rollup_property_id === property.id)
          found.push({ source, rollup: config });
      }
    }
    return found;
  }

  /**
   * Renames a property and every reference to it: formulas naming it in its data source or
   * through relations in others, rollups of its data source and of data sources relating to it,
   * and the synced name on a dual relation's other side.
   */
  private async rename(owner: EditedSource, property: Property, name: string, at: FieldPath): Promise<void> {
    if (Object.values(owner.schema).some((p) => p.name === name && p.id !== property.id))
      throw invalidField(at, 'should not be the name of another property', name);
    const readers = await this.formulasReading(owner, property);
    property.name = name;
    this.effectsOf(owner.id);
    for (const { source, formula, references } of readers) {
      const config = configOf<{ expression: string }>(formula);
      config.expression = rewriteReferences(config.expression, references, name);
      this.effectsOf(source.id);
    }
    for (const p of Object.values(owner.schema)) {
      if (p.type === 'rollup' && p.rollup && configOf<RollupConfig>(p).relation_property_id === property.id)
        configOf<RollupConfig>(p).relation_property_name = name;
    }
    if (property.type === 'relation') {
      const config = configOf<RelationConfig>(property);
      const target = config.type === 'dual_property' && config.dual_property ? await this.source(config.data_source_id) : undefined;
      const partner = target?.schema[config.dual_property?.synced_property_id ?? ''];
      if (target && partner?.type === 'relation') {
        const back = configOf<RelationConfig>(partner);
        if (back.dual_property) back.dual_property.synced_property_name = name;
        this.effectsOf(target.id);
      }
    }
    for (const { source, rollup } of await this.rollupsOf(owner, property)) {
      rollup.rollup_property_name = name;
      this.effectsOf(source.id);
    }
  }
}
