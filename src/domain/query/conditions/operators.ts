import type { RawBuilder } from 'kysely';
import { invalidField, type FieldPath } from '../../../errors/validationFailure.js';
import { normalizeId } from '../../../ids/ids.js';
import type { Property, Schema } from '../../properties/schemaTypes.js';
import { isRecord as isObject } from '../../rollups/rollupAtoms.js';
import { DATE_WINDOWS, parseDateOperand, RELATIVE_DATES } from '../dateOperands.js';
import type { Cond } from '../../../storage/query/sqlPieces.js';
import type { CompileEnv, RowValue, Target } from '../compileEnv.js';

/** What an operator takes (spec "Filter object", the right column). */
export type OperandKind =
  | 'string'
  | 'number'
  | 'boolean'
  /** `is_empty: true`: only `true`. */
  | 'true'
  /** `past_week: {}`. */
  | 'empty_object'
  | 'date'
  /** An option name or an array of them. */
  | 'names'
  /** A user id or `me`. */
  | 'person'
  | 'page_id'
  | 'verification';

/** One checked condition: its operator and its operand, converted (dates resolved, ids normalised, names listed). */
export interface ParsedCondition {
  op: string;
  value: unknown;
}

/** What checking a condition reads besides the condition itself. */
export interface ParseContext {
  now: Date;
  /** The property filtered (the rolled-up property inside a rollup's any/every/none). */
  property: Property | null;
  /** Schemas of related data sources. */
  schemaOf(dataSourceId: string): Schema | undefined;
  /** The schema of the data source `property` belongs to. */
  schemaOfSelf(): Schema;
  /** A formula property's result type as the schema types it. */
  formulaResultOf(property: Property): 'string' | 'number' | 'checkbox' | 'date';
  /** Checks `{<key>: condition}` against a property of another data source (a rollup's rolled-up property). */
  parseLeaf(property: Property, dataSourceId: string, key: string, condition: unknown, path: FieldPath): LeafCondition;
}

/** A checked condition on one property, with the conditions that compile it. */
export interface LeafCondition {
  property: Property | null;
  row: RowValue | null;
  family: FilterConditions;
  condition: ParsedCondition;
}

/**
 * The filter conditions of a property type (its `filters` entry in the registry): the type keys
 * that address them, how a condition object is checked, and how it compiles to SQL.
 */
/** Value columns with an index (data_source_id, property_id, column) whose order is the sort's order on both stores. */
export type SortIndexColumn = 'number_value' | 'date_start';

/** The index of each (migrations 001). */
export const SORT_INDEXES: Readonly<Record<SortIndexColumn, string>> = { number_value: 'property_values_number', date_start: 'property_values_date' };

export interface FilterConditions {
  /** Type keys that address these conditions besides the property type's own name (`rich_text` for url). */
  readonly keys: readonly string[];
  parse(condition: unknown, path: FieldPath, ctx: ParseContext): ParsedCondition;
  compile(condition: ParsedCondition, target: Target, env: CompileEnv): Cond;
  /**
   * What a sort by the property orders by, most significant first, each null when the value is
   * empty (empties sort last). Expressions over `target.page`, read once per row.
   */
  sortKeys(target: Target, env: CompileEnv): RawBuilder<unknown>[];
  /**
   * The stored value column the first sort key is, when an index (data_source_id, property_id,
   * column) orders the values: a sort led by this property then reads pages from that index in
   * order and stops at the page size, instead of sorting every page (domain/query/sortPath.ts).
   * Absent or null when the first key is computed (option positions, smallest items, several
   * result types) or is the page row's own column.
   */
  sortIndex?(target: Target): SortIndexColumn | null;
}

const KIND_WORDS: Record<OperandKind, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'a boolean',
  true: '`true`',
  empty_object: 'an empty object',
  date: `an ISO 8601 date or date-time, or one of ${RELATIVE_DATES.join(', ')}`,
  names: 'a string or an array of strings',
  person: 'a user id or `me`',
  page_id: 'a page id',
  verification: 'one of verified, expired, none',
};

/** Checks a condition object: exactly one operator of `table`, with an operand of its kind. */
export function parseOperator(condition: unknown, path: FieldPath, table: Readonly<Record<string, OperandKind>>, now: Date): ParsedCondition {
  const operators = Object.keys(table);
  if (!isObject(condition)) throw invalidField(path, 'should be an object', condition);
  const keys = Object.keys(condition);
  for (const key of keys) {
    if (!Object.hasOwn(table, key))
      throw invalidField([...path, key], `should be not present: the conditions here are ${operators.join(', ')}`, condition[key]);
  }
  if (keys.length !== 1) throw invalidField(path, `should have exactly one of the keys ${operators.join(', ')}`, condition);
  const op = keys[0];
  return { op, value: parseOperand(table[op], condition[op], [...path, op], now) };
}

function parseOperand(kind: OperandKind, value: unknown, path: FieldPath, now: Date): unknown {
  const fail = () => invalidField(path, `should be ${KIND_WORDS[kind]}`, value);
  switch (kind) {
    case 'string':
      if (typeof value !== 'string') throw fail();
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw fail();
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw fail();
      return value;
    case 'true':
      if (value !== true) throw fail();
      return true;
    case 'empty_object':
      if (!isObject(value) || Object.keys(value).length > 0) throw fail();
      return {};
    case 'date': {
      const operand = typeof value === 'string' ? parseDateOperand(value, now) : null;
      if (!operand) throw fail();
      return operand;
    }
    case 'names': {
      const names = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(names) || names.length === 0 || names.length > 100 || names.some((n) => typeof n !== 'string')) throw fail();
      return names as string[];
    }
    case 'person': {
      if (value === 'me') return 'me';
      const id = typeof value === 'string' ? normalizeId(value) : null;
      if (!id) throw fail();
      return id;
    }
    case 'page_id': {
      const id = typeof value === 'string' ? normalizeId(value) : null;
      if (!id) throw fail();
      return id;
    }
    case 'verification':
      if (value !== 'verified' && value !== 'expired' && value !== 'none') throw fail();
      return value;
  }
}

export const EMPTY_CHECKS = { is_empty: 'true', is_not_empty: 'true' } as const satisfies Record<string, OperandKind>;
export const DATE_TABLE: Readonly<Record<string, OperandKind>> = {
  equals: 'date',
  before: 'date',
  after: 'date',
  on_or_before: 'date',
  on_or_after: 'date',
  ...Object.fromEntries(DATE_WINDOWS.map((w) => [w, 'empty_object'])),
  ...EMPTY_CHECKS,
};
