import type { FieldPath } from '../../../errors/validationFailure.js';
import type { FormulaType, FormulaValue, PageValue } from '../../formulas/index.js';
import type { Atom, RollupInput } from '../../rollups/rollupAtoms.js';
import type { UserRow } from '../../../storage/schema.js';
import type { ValueColumns } from '../../../storage/repositories/propertyValues.js';
import type { Property } from '../schemaTypes.js';
import type { StoredValue } from '../storedValue.js';
import type { ValueContext } from '../valueContext.js';
import type { FilterConditions } from '../../query/conditions/operators.js';

/** A configuration or a value member as JSON: read member by member. */
export type Json = Record<string, unknown>;

/** What converting values for formulas needs: the people of the workspace and the pages reachable through relations. */
export interface FormulaWorld {
  users: ReadonlyMap<string, UserRow>;
  page(id: string): PageValue | undefined;
}

/** The registry's conversions, handed to the types whose values hold other property values (rollup arrays). */
export type ToFormulaValue = (value: StoredValue | undefined, world: FormulaWorld) => FormulaValue;
export type AtomsOf = (input: RollupInput, depth: number) => Atom[];

/**
 * Validates the `<type>` member of a request value (already matched against the type's request
 * schema) and returns the member to store. `path` names the member, for validation errors.
 */
export type NormalizeMember = (ctx: ValueContext, property: Property, member: unknown, path: FieldPath) => unknown;

/**
 * A value that is the page row's own (timestamps and authors): computed from the row
 * (computeValues.ts) and shown from it, so it is never older than the row.
 */
export interface FromPageRow {
  column: 'created_time' | 'last_edited_time' | 'created_by' | 'last_edited_by';
  /** What the column holds: an instant, or a user id. */
  as: 'timestamp' | 'user';
}

/** How a page object shows the type's value (FACTS.md §6 "Size limits"). */
export interface PageRules {
  /** Set when the value is the page row's own. */
  fromRow: FromPageRow | null;
  /**
   * The value is a list of references: a page cuts it at PAGE_REFERENCE_LIMIT, and the property
   * item endpoint pages through it, one item per element (FACTS.md §3 "Property item list").
   */
  referenceList: boolean;
  /** The cut list says whether it was cut (`has_more`): relations only. */
  hasMore: boolean;
}

/** Everything the server knows about one property type; src/domain/properties/registry.ts holds one per type. */
export interface PropertyTypeDefinition {
  /**
   * Normalises a request value; null for the values the server computes, which a request may not
   * set (FACTS.md §2: rollups are not writable).
   */
  normalize: NormalizeMember | null;
  /** The value is a list of independent elements: at most VALUE_LIMITS.listItems in a request, one atom each in rollups. */
  multiValued: boolean;
  /** The value holds options of the configuration: values follow when options are renamed, recoloured or removed. */
  optionValues: boolean;
  /**
   * Fills the typed columns SQL filters read (`into` starts empty): text-like values in
   * text_value (null when empty), numbers in number_value, dates as UTC instants, checkboxes as
   * 0/1, list elements one item each.
   */
  columns(member: unknown, into: ValueColumns): void;
  /** The member a page holds for a property it was never given: what the service shows for an empty cell. */
  emptyValue(property: Property): unknown;
  /** How the formula language types `prop("…")` of the property (formulas and rollups are typed by formulaSchema). */
  formulaType(property: Property): FormulaType;
  /** The member as the formula language reads it. */
  toFormulaValue(member: unknown, world: FormulaWorld, toFormulaValue: ToFormulaValue): FormulaValue;
  /** The countable pieces of the member for rollups (rollupAtoms.ts); none when empty. */
  atoms(member: unknown, depth: number, atomsOf: AtomsOf): Atom[];
  /**
   * The stored configuration after a request's `<type>` member; `existing` is the current one
   * when the type is unchanged. Relations and rollups, which need other data sources, are
   * configured by the schema editor after this.
   */
  configure(member: Json, existing: unknown, path: FieldPath): Json;
  /** The configuration as a data source shows it, field by field (internal counters stay out). */
  presentConfig(config: Json): Json;
  page: PageRules;
  /**
   * The type's filter conditions (spec "Filter object": `equals`, `contains`, `before`, …): how a
   * condition is checked and compiled to SQL over the columns `columns` fills (src/domain/query).
   */
  filters: FilterConditions;
}

/** The page rules of most types: shown as stored. */
export const AS_STORED: PageRules = { fromRow: null, referenceList: false, hasMore: false };

export const noConfig = (): Json => ({});
export const textOrNull = (s: string | null | undefined): string | null => (s === undefined || s === null || s === '' ? null : s);
