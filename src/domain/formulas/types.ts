/** Static type of a formula expression or of a property as seen by formulas. */
export type FormulaType =
  | { kind: 'string' }
  | { kind: 'number' }
  | { kind: 'boolean' }
  | { kind: 'date' }
  | { kind: 'person' }
  | { kind: 'page' }
  | { kind: 'list'; of: FormulaType }
  | { kind: 'empty' };

/** ISO 8601 strings; date-only strings like "2024-01-31" are allowed. */
export interface DateValue {
  start: string;
  end: string | null;
  time_zone: string | null;
}

export interface PersonValue {
  kind: 'person';
  id: string;
  name: string | null;
  email: string | null;
}

/** A related page, as reached through a relation property. */
export interface PageValue {
  kind: 'page';
  id: string;
  title: string;
  getProperty(name: string): FormulaValue;
}

export type FormulaValue = null | string | number | boolean | DateValue | PersonValue | PageValue | FormulaValue[];

/** The caller maps Notion property types to FormulaType. */
export interface FormulaPropertyInfo {
  id: string;
  name: string;
  type: FormulaType;
}

export interface FormulaContext {
  now: Date;
  pageId: string;
  getProperty(name: string): FormulaValue;
  /**
   * Schema of a related data source. Typing happens at compile time through
   * `compileFormula(..., relatedSchemas)`, so evaluation never needs this; it is
   * accepted so callers can pass one context object to both phases.
   */
  relatedProperties?(relationName: string): FormulaPropertyInfo[];
}

/**
 * One `prop("…")` of a formula: where its name literal is in the expression (`start` at the
 * opening quote, `end` past the closing one), what it says and the property it resolved to.
 * `relation` names the relation property whose related pages are read (`current.prop("…")` over
 * `prop("Tasks")`), null for a property of the formula's own page.
 */
export interface PropertyReference {
  start: number;
  end: number;
  literal: string;
  id: string;
  relation: string | null;
}

export interface CompiledFormula {
  expression: string;
  resultType: FormulaType;
  /** Names of the current page's properties referenced via prop(), in order of first use. */
  dependencies: string[];
  /** Every prop() of the expression, in source order. */
  references: PropertyReference[];
  /** Calls now() or today(): its value changes with time alone. */
  readsClock: boolean;
  evaluate(ctx: FormulaContext): FormulaValue;
}

export type CompileResult = { ok: true; formula: CompiledFormula } | { ok: false; position: number; message: string };

export type ApiFormulaValue =
  | { type: 'string'; string: string | null }
  | { type: 'number'; number: number | null }
  | { type: 'boolean'; boolean: boolean | null }
  | { type: 'date'; date: DateValue | null };
