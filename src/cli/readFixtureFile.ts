import fs from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import type { ErrorObject } from 'ajv';
import { Fixture, type FixtureInput } from '../schemas/fixtures.js';
import { validatorCompiler } from '../http/validators.js';
import { screenBody } from '../http/screenBody.js';
import { validationFailureOf } from '../errors/validationMessage.js';

export interface FixtureFile {
  fixture: FixtureInput;
  /** Where `path` bytes are read from: the fixture file's directory. */
  baseDir: string;
}

type Validate = ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };
let validate: Validate | null = null;

/**
 * Reads a fixture file for `folio import` and FOLIO_SEED: YAML when its name ends in .yaml or
 * .yml, JSON otherwise; then checked against the same schema as `POST /admin/v1/import`, so a bad
 * fixture names the same path in either place.
 */
export async function readFixtureFile(file: string): Promise<FixtureFile> {
  const full = path.resolve(file);
  const text = await fs.readFile(full, 'utf8');
  let parsed: unknown;
  try {
    parsed = /\.ya?ml$/i.test(full) ? parse(text, { schema: 'core', maxAliasCount: 100 }) : JSON.parse(text);
  } catch (error) {
    throw new Error(`${full} is not valid ${/\.ya?ml$/i.test(full) ? 'YAML' : 'JSON'}: ${(error as Error).message.split('\n')[0]}`);
  }
  screenBody(parsed);
  validate ??= validatorCompiler({ schema: Fixture, method: 'POST', url: 'fixture', httpPart: 'body' }) as Validate;
  if (!validate(parsed)) throw validationFailureOf('body', validate.errors ?? []);
  return { fixture: parsed as FixtureInput, baseDir: path.dirname(full) };
}
