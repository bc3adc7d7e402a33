import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ allErrors: false, verbose: true, strict: false, ...options });
  addFormats(ajv);
  return ajv;
}

/**
 * Bodies are validated exactly as sent: no coercion, no defaults, no stripping, so `"1"` is not a
 * number and unknown keys fail (strict since 2021-08-16). Query strings and path parameters are
 * text by nature, so they are coerced to the declared types.
 */
const bodyAjv = makeAjv({ coerceTypes: false, useDefaults: false, removeAdditional: false });
const textAjv = makeAjv({ coerceTypes: 'array', useDefaults: true, removeAdditional: false });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};
