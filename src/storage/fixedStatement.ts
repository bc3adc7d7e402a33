import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Db } from './db.js';
import { dialectOf, type DialectName } from './dialect.js';

/** Stands for one named argument while a fixed statement is built and compiled. */
class Slot {
  constructor(readonly name: string) {}
}

interface Template {
  compiled: CompiledQuery;
  /** Per bound parameter: the argument it takes, or null for a constant the builder bound. */
  slots: (string | null)[];
}

/** Reads each property as a placeholder for the argument of that name. */
const PLACEHOLDERS = new Proxy({}, { get: (_target, name) => (typeof name === 'string' ? new Slot(name) : undefined) });

export interface FixedStatement<A, R> {
  /** Every row it answers. */
  rows(db: Db, args: A): Promise<R[]>;
  /** Its first row, if any. */
  first(db: Db, args: A): Promise<R | undefined>;
  /** Runs it for its effect; answers what the driver says (rows changed). */
  run(db: Db, args: A): Promise<QueryResult<R>>;
}

/**
 * A statement whose SQL never changes, only its values: built with Kysely's builder once per
 * dialect and run again with new arguments bound. Building and compiling a statement costs 3–11 µs
 * of JavaScript, more than SQLite takes to run most of the statements a write makes, and every
 * write makes eight or more (docs/benchmarks.md, "Writes: statements built once").
 *
 * `build` is called once per dialect with placeholders for the arguments, so it may pass an
 * argument only as a value (`where('id', '=', args.id)`, `values({ id: args.id })`), never inspect
 * it, spread it or branch on it: a list (its length is the statement's shape) or a LIMIT (the
 * SQLite compiler writes it as a literal) cannot be an argument. Running it with an argument left
 * undefined throws: the builder would have left such a column out, which no fixed SQL can do.
 */
export function fixedStatement<A extends object, R>(build: (db: Db, args: A) => Compilable<R>): FixedStatement<A, R> {
  const templates = new Map<DialectName, Template>();
  const compiledFor = (db: Db, args: A): CompiledQuery<R> => {
    const dialect = dialectOf(db).name;
    let template = templates.get(dialect);
    if (!template) {
      const compiled = build(db, PLACEHOLDERS as A).compile();
      const slots = compiled.parameters.map((p) => (p instanceof Slot ? p.name : null));
      template = { compiled, slots };
      templates.set(dialect, template);
    }
    const { compiled, slots } = template;
    const parameters = slots.map((name, i) => {
      if (name === null) return compiled.parameters[i];
      const value = (args as Record<string, unknown>)[name];
      if (value === undefined) throw new TypeError(`fixed statement: the argument "${name}" is undefined in ${compiled.sql}`);
      return value;
    });
    return { ...compiled, parameters } as CompiledQuery<R>;
  };
  return {
    rows: async (db, args) => (await db.executeQuery(compiledFor(db, args))).rows,
    first: async (db, args) => (await db.executeQuery(compiledFor(db, args))).rows[0],
    run: async (db, args) => db.executeQuery(compiledFor(db, args)),
  };
}
