import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { sharedSchemasById } from './sharedSchemas.js';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(options: Options, externalSchemas: Record<string, unknown>): Ajv {
  const ajv = new Ajv({ allErrors: false, verbose: true, strict: false, ...options });
  addFormats(ajv);
  for (const schema of Object.values(externalSchemas)) ajv.addSchema(schema as object);
  return ajv;
}

type Compiler = FastifySchemaCompiler<unknown>;

/**
 * Built compilers, by the schemas they were given. Every server of a process (tests build many) is
 * given the same shared schemas, so they share one pair of Ajv instances and each route schema is
 * compiled once per process, as before the shared schemas went through Fastify. Fastify clones what
 * `addSchema` receives, so the schemas are compared by content.
 */
const built = new Map<string, Compiler>();

/**
 * Fastify's `schemaController.compilersFactory.buildValidator`: called with the schemas added by
 * `app.addSchema` (src/http/sharedSchemas.ts), which route schemas refer to by `$id`.
 *
 * Bodies are validated exactly as sent: no coercion, no defaults, no stripping, so `"1"` is not a
 * number and unknown keys fail (strict since 2021-08-16). Query strings and path parameters are
 * text by nature, so they are coerced to the declared types.
 */
export function buildValidatorCompiler(externalSchemas: Record<string, unknown>): Compiler {
  const key = JSON.stringify(externalSchemas);
  const known = built.get(key);
  if (known) return known;
  const bodyAjv = makeAjv({ coerceTypes: false, useDefaults: false, removeAdditional: false }, externalSchemas);
  const textAjv = makeAjv({ coerceTypes: 'array', useDefaults: true, removeAdditional: false }, externalSchemas);
  const compiler: Compiler = ({ schema, httpPart }) => lazyValidator(httpPart === 'body' ? bodyAjv : textAjv, schema as object);
  built.set(key, compiler);
  return compiler;
}

type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** Validators not yet compiled, to compile them all at once (compilePendingValidators). */
const pending = new Set<() => ValidateFunction>();

/**
 * A route's validator, compiled by Ajv when it first validates: compiling every route's schemas
 * when a server is built took 1.4 s of a process's 3.9 s start (a test file, a child server, each
 * `folio serve` process), for routes most processes never call; Ajv caches by schema, so another
 * server in the process reuses what one compiled. Fastify reads `errors` from the function it
 * called, so they are copied onto it.
 */
function lazyValidator(ajv: Ajv, schema: object): ReturnType<Compiler> {
  let compiled: ValidateFunction | undefined;
  const compile = () => {
    pending.delete(compile);
    return (compiled ??= ajv.compile(schema));
  };
  pending.add(compile);
  const validate: Validator = (data) => {
    const inner = compiled ?? compile();
    const valid = inner(data) as boolean;
    validate.errors = inner.errors;
    return valid;
  };
  return validate as ReturnType<Compiler>;
}

/**
 * Compiles every validator built so far and not yet used, and answers how many: a schema Ajv
 * refuses throws here, as it would at its route's first request (test/http/validators.test.ts).
 */
export function compilePendingValidators(): number {
  const all = [...pending];
  for (const compile of all) compile();
  return all.length;
}

/** The route compiler outside Fastify (`folio admin` checks its options with the routes' schemas). */
export const validatorCompiler: Compiler = (route) => buildValidatorCompiler(sharedSchemasById())(route);
