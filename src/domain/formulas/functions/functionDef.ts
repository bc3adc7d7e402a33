import type { Ty, TypeSpec } from '../typeSystem.js';
import type { FormulaValue } from '../types.js';

/** What evaluation needs from the outside world; `step()` enforces the evaluation budget. */
export interface Runtime {
  readonly now: Date;
  readonly pageId: string;
  getProperty(name: string): FormulaValue;
  step(): void;
}

/** A call site as seen by a function's type rule. */
export interface CheckCall {
  /** Name used in messages: the function name, or the operator symbol. */
  readonly display: string;
  readonly types: readonly Ty[];
  /** The value of argument i when it is written as a string or number literal. */
  literal(i: number): FormulaValue | undefined;
  /** Throws a positioned "Expected X but got Y" error unless argument i matches. */
  expect(i: number, spec: TypeSpec): Ty;
  /** Throws a positioned error at argument i (or at the call itself for -1). */
  fail(i: number, message: string): never;
}

/** A call site during evaluation. Arguments are evaluated on demand so `if`, `and` and callbacks stay lazy. */
export interface EvalCall {
  readonly count: number;
  readonly rt: Runtime;
  readonly type: Ty;
  readonly argTypes: readonly Ty[];
  arg(i: number): FormulaValue;
  /** Evaluates a callback argument with `current` and `index` bound. */
  argWith(i: number, current: FormulaValue, index: number): FormulaValue;
}

export interface FunctionDef {
  readonly name: string;
  readonly minArgs: number;
  readonly maxArgs: number;
  /**
   * Arguments evaluated once per item of argument 0 (which must be a list),
   * with `current` bound to the item and `index` to its 0-based position.
   */
  readonly callbackArgs?: readonly number[];
  check(c: CheckCall): Ty;
  evaluate(c: EvalCall): FormulaValue;
}

export interface SimpleOptions {
  /** How many trailing entries of `params` may be omitted. */
  optional?: number;
  /** Type of any further (variadic) arguments. */
  rest?: TypeSpec;
  /** Minimum argument count when `rest` is used. */
  minArgs?: number;
}

/**
 * A function whose arguments are all evaluated eagerly and whose parameter
 * types are fixed, which covers most of the library.
 */
export function simple(
  name: string,
  params: readonly TypeSpec[],
  returns: Ty | ((c: CheckCall) => Ty),
  impl: (args: FormulaValue[], c: EvalCall) => FormulaValue,
  options: SimpleOptions = {},
): FunctionDef {
  const rest = options.rest;
  return {
    name,
    minArgs: options.minArgs ?? params.length - (options.optional ?? 0),
    maxArgs: rest === undefined ? params.length : Number.POSITIVE_INFINITY,
    check(c) {
      c.types.forEach((_, i) => {
        const spec = params[i] ?? rest;
        if (spec !== undefined) c.expect(i, spec);
      });
      return typeof returns === 'function' ? returns(c) : returns;
    },
    evaluate(c) {
      const args: FormulaValue[] = [];
      for (let i = 0; i < c.count; i++) args.push(c.arg(i));
      return impl(args, c);
    },
  };
}
