import type { Static, TSchema } from 'typebox';
import type { AppContext } from '../context.js';
import type { ListView } from '../domain/views.js';
import { AdminDeleted, AdminList, AdminListQuery, type AdminListOptions } from '../schemas/admin.js';
import { presentAdminList, presentDeleted } from '../presenters/adminObjects.js';
import { parseIdParam } from '../ids/ids.js';

/**
 * One operator action, declared once: the `/admin/v1` route (src/routes/admin/index.ts) and the
 * `folio admin` subcommand (src/cli/registerAdminCli.ts) are both built from it, so they accept the
 * same input (the CLI checks its options against these schemas) and answer the same JSON.
 */
export interface AdminOperation<P extends TSchema, Q extends TSchema, B extends TSchema, R extends TSchema, Result> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Under /admin/v1, in Fastify's form (`/workspaces/:workspace_id`). */
  path: string;
  params?: P;
  query?: Q;
  body?: B;
  /** The newest body of a 2xx answer (the route's `config.response`); `present` returns its `Static<>` type. */
  response: R;
  /** Calls the command; path parameters come parsed (they are all ids), other ids are still text (parsed here, so an invalid one names its field). */
  run(ctx: AppContext, input: AdminInput<Static<P>, Static<Q>, Static<B>>): Promise<Result> | Result;
  present(result: Result, ctx: AppContext): Static<R>;
  /** The `folio admin` subcommand; none for actions that only make sense on a running server. */
  cli?: AdminCli;
  /** Whether the server offers it at all (the test clock exists only with FOLIO_TEST_CLOCK=1). */
  enabled?(ctx: AppContext): boolean;
  /** A larger body than the plane's 500 KB, in bytes (a fixture to import). */
  bodyLimit?: number;
}

export interface AdminInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

/** An operation with its types erased, as the table holds it. */
export type AnyAdminOperation = AdminOperation<TSchema, TSchema, TSchema, TSchema, unknown>;

export interface AdminCli {
  name: string;
  description: string;
  /** In the order `--help` lists them. */
  options: readonly CliOption[];
}

/** A command-line option and the request field it fills. */
export interface CliOption {
  /** Commander's flags: `--workspace <id>`, `--no-meeting-notes`. */
  flags: string;
  description?: string;
  required?: boolean;
  defaultValue?: string;
  /** The field the value goes to; none for an option that only negates another. */
  to?: { part: 'params' | 'query' | 'body'; field: string };
  /** From the option's value (undefined when not given) to the field's. */
  convert?(value: unknown): unknown;
}

/**
 * Runs an operation for either transport (the route and the subcommand): every path parameter is an
 * id, parsed first in path order so an invalid one names its field; then the command and the presenter.
 */
export async function performAdminOperation(operation: AnyAdminOperation, ctx: AppContext, input: AdminInput<unknown, unknown, unknown>): Promise<unknown> {
  const raw = (input.params ?? {}) as Record<string, string>;
  const params = Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, parseIdParam(value, name)]));
  return operation.present(await operation.run(ctx, { ...input, params }), ctx);
}

export function adminOperation<P extends TSchema, Q extends TSchema, B extends TSchema, R extends TSchema, Result>(
  operation: AdminOperation<P, Q, B, R, Result>,
): AnyAdminOperation {
  return operation as unknown as AnyAdminOperation;
}

/** `--<flag> <value>` filling a path parameter (`--workspace <id>` → `workspace_id`). */
export const pathOption = (flags: string, field: string): CliOption => ({ flags, required: true, to: { part: 'params', field } });
/** A body field from an option. */
export const bodyOption = (flags: string, field: string, more: Omit<CliOption, 'flags' | 'to'> = {}): CliOption => ({
  flags,
  ...more,
  to: { part: 'body', field },
});
/** A comma-separated list on the command line, an array in the body. */
export const commaList = (value: unknown) =>
  typeof value !== 'string'
    ? value
    : value
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean);

const PAGE_OPTIONS: readonly CliOption[] = [
  { flags: '--page-size <n>', description: 'results per page (1-100, default 100)', to: { part: 'query', field: 'page_size' } },
  { flags: '--start-cursor <cursor>', description: 'next_cursor of the previous page', to: { part: 'query', field: 'start_cursor' } },
];

/** A GET listing, paginated like the API's lists (`page_size`, `start_cursor`); its subcommand takes `--page-size` and `--start-cursor`. */
export function listing<P extends TSchema, I extends TSchema, Row>(spec: {
  path: string;
  params?: P;
  item: I;
  load(ctx: AppContext, params: Static<P>, page: AdminListOptions): Promise<ListView<Row>>;
  presentItem(row: Row): Static<I>;
  cli?: AdminCli;
}): AnyAdminOperation {
  // The item's presenter is checked against the item schema above; the list around it is built here,
  // where TypeBox cannot follow a generic item schema, so the operation is assembled with its types erased.
  const operation: AnyAdminOperation = {
    method: 'GET',
    path: spec.path,
    params: spec.params,
    query: AdminListQuery,
    response: AdminList(spec.item),
    run: (ctx, { params, query }) => spec.load(ctx, params as Static<P>, query as AdminListOptions),
    present: (list) => presentAdminList(list as ListView<Row>, (row) => spec.presentItem(row)),
    cli: spec.cli && { ...spec.cli, options: [...spec.cli.options, ...PAGE_OPTIONS] },
  };
  return operation;
}

/** A DELETE answering `{object, id, deleted: true}`, the id being the path parameter `idParam`. */
export function deletion<P extends TSchema, K extends string>(spec: {
  path: string;
  params: P;
  object: K;
  idParam: keyof Static<P> & string;
  remove(ctx: AppContext, params: Static<P>): Promise<void>;
  cli?: AdminCli;
}): AnyAdminOperation {
  return adminOperation({
    method: 'DELETE',
    path: spec.path,
    params: spec.params,
    response: AdminDeleted(spec.object),
    run: async (ctx, { params }) => {
      await spec.remove(ctx, params);
      return String(params[spec.idParam]);
    },
    present: (id: string) => presentDeleted(spec.object, id),
    cli: spec.cli,
  });
}

/** An action with no input but the context, answering one object (the processing switches, the sweeper, the clock). */
export function plainOperation<R extends TSchema, Result>(
  method: 'GET' | 'POST',
  path: string,
  response: R,
  run: (ctx: AppContext) => Promise<Result> | Result,
  present: (result: Result) => Static<R>,
  more: Pick<AnyAdminOperation, 'enabled'> = {},
): AnyAdminOperation {
  return adminOperation({ method, path, response, run: (ctx) => run(ctx), present: (result) => present(result), ...more });
}
