import { Option, type Command } from 'commander';
import type { TSchema } from 'typebox';
import type { ErrorObject } from 'ajv';
import type { InputPart } from '../errors/validationFailure.js';
import { loadConfig } from '../config.js';
import { createCore } from '../core.js';
import { validationFailureOf } from '../errors/validationMessage.js';
import { validatorCompiler } from '../http/validators.js';
import { ADMIN_OPERATIONS, performAdminOperation, type AnyAdminOperation, type CliOption } from '../admin/index.js';

/**
 * `folio admin`: one subcommand per operation of the admin table (src/admin/index.ts) that has
 * one. It runs the same command as the /admin/v1 route, directly on the configured store, and
 * prints what the route would answer (the same presenter).
 */
async function runOnStore(operation: AnyAdminOperation, input: (part: 'params' | 'query' | 'body') => unknown): Promise<void> {
  const core = await createCore(loadConfig());
  try {
    const result = await performAdminOperation(operation, core, { params: input('params'), query: input('query'), body: input('body') });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await core.close();
  }
}

const HTTP_PART = { params: 'params', query: 'querystring', body: 'body' } as const;
const MESSAGE_PART: Record<'params' | 'query' | 'body', InputPart> = { params: 'path', query: 'query', body: 'body' };

/** Options are checked against the route's schema for that part, so both refuse the same input alike. */
function checked(schema: TSchema, input: Record<string, unknown>, part: 'params' | 'query' | 'body'): unknown {
  const value = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const validate = validatorCompiler({ schema, method: 'POST', url: 'folio admin', httpPart: HTTP_PART[part] }) as ((v: unknown) => boolean) & {
    errors?: ErrorObject[] | null;
  };
  if (!validate(value)) throw validationFailureOf(MESSAGE_PART[part], validate.errors ?? []);
  return value;
}

/** The request an operation would get over HTTP, from the subcommand's options; each part checked as Fastify checks it (path, body, query). */
function requestOf(operation: AnyAdminOperation, options: readonly CliOption[], values: Record<string, unknown>) {
  const parts = { params: {} as Record<string, unknown>, query: {} as Record<string, unknown>, body: {} as Record<string, unknown> };
  for (const option of options) {
    if (!option.to) continue;
    const value = values[new Option(option.flags).attributeName()];
    parts[option.to.part][option.to.field] = option.convert ? option.convert(value) : value;
  }
  const request: Partial<Record<'params' | 'query' | 'body', unknown>> = {};
  for (const part of ['params', 'body', 'query'] as const) {
    const schema = operation[part];
    if (schema) request[part] = checked(schema, parts[part], part);
  }
  return (part: 'params' | 'query' | 'body') => request[part];
}

export function registerAdminCli(program: Command): void {
  const admin = program
    .command('admin')
    .description('operator actions, run directly on the configured store (same environment variables as the server; no server needed)');
  for (const operation of ADMIN_OPERATIONS) {
    const cli = operation.cli;
    if (!cli) continue;
    const command = admin.command(cli.name).description(cli.description);
    for (const spec of cli.options) {
      const option = new Option(spec.flags, spec.description);
      if (spec.required) option.makeOptionMandatory();
      if (spec.defaultValue !== undefined) option.default(spec.defaultValue);
      command.addOption(option);
    }
    // Options are checked before the store is opened; ids are parsed by the operation, as over HTTP.
    command.action(async (values: Record<string, unknown>) => runOnStore(operation, requestOf(operation, cli.options, values)));
  }
}
