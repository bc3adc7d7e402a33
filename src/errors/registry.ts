/**
 * Every error code the API can answer with, once, with its HTTP status and default message.
 * The spec's error table (content-api.md "Errors") is the source; test/platform/errorRegistry.test.ts
 * keeps this list, the spec and docs/errors.md in step.
 */
export const ERROR_REGISTRY = {
  invalid_json: { status: 400, message: 'Error parsing JSON body.' },
  invalid_request_url: { status: 400, message: 'Invalid request URL.' },
  invalid_request: { status: 400, message: 'Unsupported request.' },
  missing_version: { status: 400, message: 'Service-Version header failed validation.' },
  invalid_beta: { status: 400, message: 'Service-Beta header failed validation.' },
  validation_error: { status: 400, message: 'body failed validation.' },
  invalid_credit_limit: { status: 400, message: 'Invalid credit limit.' },
  unauthorized: { status: 401, message: 'API token is invalid.' },
  restricted_resource: { status: 403, message: 'API token does not have access to this resource.' },
  status_change_not_allowed: { status: 403, message: 'This status change is not allowed.' },
  workspace_credits_exhausted: { status: 403, message: 'The workspace has no credits left.' },
  agent_credit_limit_reached: { status: 403, message: 'The agent has reached its credit limit.' },
  object_not_found: { status: 404, message: 'Could not find object.' },
  directory_not_found: { status: 404, message: 'Could not find directory.' },
  row_limit_exceeded: { status: 406, message: 'Row limit exceeded.' },
  conflict_error: { status: 409, message: 'Conflict occurred while saving. Please try again.' },
  agent_deleted: { status: 409, message: 'The agent has been deleted.' },
  rate_limited: { status: 429, message: 'You have been rate limited. Please try again in a few minutes.' },
  internal_server_error: { status: 500, message: 'Unexpected error occurred.' },
  service_unavailable: { status: 503, message: 'Service is unavailable. Please try again later.' },
  gateway_timeout: { status: 504, message: 'Gateway timed out.' },
  service_overload: { status: 529, message: 'Service is overloaded. Please try again later.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_REGISTRY;

export type AdditionalData = Record<string, string | string[]>;

/** The one error type handlers throw; the error handler renders it in the spec's body shape. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly additionalData?: AdditionalData;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message?: string, options: { additionalData?: AdditionalData; headers?: Record<string, string> } = {}) {
    super(message ?? ERROR_REGISTRY[code].message);
    this.code = code;
    this.status = ERROR_REGISTRY[code].status;
    this.additionalData = options.additionalData;
    this.headers = options.headers;
  }
}

export type ObjectKind =
  'page' | 'block' | 'database' | 'data_source' | 'user' | 'file_upload' | 'comment' | 'discussion' | 'connection' | 'workspace' | 'view' | 'view_query';

const KIND_LABEL: Record<ObjectKind, string> = {
  page: 'page',
  block: 'block',
  database: 'database',
  data_source: 'data source',
  user: 'user',
  file_upload: 'file upload',
  comment: 'comment',
  discussion: 'discussion',
  connection: 'connection',
  workspace: 'workspace',
  view: 'view',
  view_query: 'view query',
};

/**
 * Missing and unshared objects must be indistinguishable, so the message names the kind the
 * route asked for and the id as the caller wrote it, never anything read from the store.
 */
export function notFound(kind: ObjectKind, id: string): ApiError {
  return new ApiError(
    'object_not_found',
    `Could not find ${KIND_LABEL[kind]} with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
  );
}

export function validationError(message: string): ApiError {
  return new ApiError('validation_error', message);
}

export function restricted(message?: string): ApiError {
  return new ApiError('restricted_resource', message);
}
