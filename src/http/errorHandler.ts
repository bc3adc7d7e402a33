import type { Logger } from '../logger.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/registry.js';
import { validationFailureOf } from '../errors/validationMessage.js';
import { ValidationFailure, type InputPart } from '../errors/validationFailure.js';
import { isStoreUnavailable } from '../storage/storeErrors.js';

/** Seconds a client is told to wait when the store is unreachable: a restarting database is back in seconds. */
const STORE_RETRY_AFTER_SECONDS = 5;

const PARTS: Record<string, InputPart> = { body: 'body', querystring: 'query', params: 'path', headers: 'body' };

/** Turns anything thrown while serving a request into an ApiError; unknown failures become 500. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const fe = error as Partial<FastifyError> & { validation?: unknown[]; validationContext?: string };
  if (fe.validation && Array.isArray(fe.validation)) {
    const part = PARTS[fe.validationContext ?? 'body'] ?? 'body';
    return validationFailureOf(part, fe.validation as Parameters<typeof validationFailureOf>[1]);
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('invalid_json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ValidationFailure({ part: 'body', path: [], rule: { name: 'custom', expectation: 'should be at most 500KB' }, actual: { words: 'larger' } });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('invalid_request', 'Unsupported request: the content type must be application/json.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('invalid_request', 'Unsupported request: the Content-Length header does not match the body.');
  }
  if (error instanceof SyntaxError && fe.statusCode === 400) return new ApiError('invalid_json');
  // Any other refusal Fastify or one of its plugins makes of a request (a 4xx FST_ error) is the
  // caller's, not a 500; the ones above have words of their own.
  if (typeof fe.code === 'string' && fe.code.startsWith('FST_') && typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500)
    return new ApiError('invalid_request');
  // Two writers crossing (PostgreSQL deadlock or serialization failure, SQLite busy past its
  // timeout) is the service's conflict_error: nothing was saved and a retry is safe.
  const storeCode = (error as { code?: unknown }).code;
  if (storeCode === '40P01' || storeCode === '40001' || storeCode === 'SQLITE_BUSY' || storeCode === 'SQLITE_BUSY_SNAPSHOT')
    return new ApiError('conflict_error');
  // A unique key refusing the second of two writers that both checked first (two sends of one
  // upload part): the first one's write stands.
  if (storeCode === '23505' || storeCode === 'SQLITE_CONSTRAINT_UNIQUE') return new ApiError('conflict_error');
  // The database stopped, the connection dropped or the disk is full: the write was not
  // acknowledged, and the pool reconnects by itself once the store is back.
  if (isStoreUnavailable(error))
    return new ApiError('service_unavailable', 'The store is not reachable. Please try again later.', {
      headers: { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) },
    });
  return new ApiError('internal_server_error');
}

/** The error each failed request answered with, for its log line (requestLog.ts); gone with the request. */
export function answeredError(request: FastifyRequest): ApiError | null {
  return request.apiError;
}

export function renderError(request: FastifyRequest, reply: FastifyReply, apiError: ApiError) {
  request.apiError = apiError;
  // Also set by the root's onRequest hook; errors answered before any hook runs (frameworkErrors) need it here.
  reply.header('x-request-id', request.id);
  if (apiError.headers) reply.headers(apiError.headers);
  const body: Record<string, unknown> = {
    object: 'error',
    status: apiError.status,
    code: apiError.code,
    message: apiError.message,
    request_id: request.id,
  };
  if (apiError.additionalData) body.additional_data = apiError.additionalData;
  return reply.code(apiError.status).type('application/json; charset=utf-8').send(body);
}

export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply, log: Logger) {
  const apiError = toApiError(error);
  if (apiError.status >= 500) {
    // The body says nothing of internals; the log carries them, keyed by the request id.
    log.error({ err: error, reqId: request.id }, 'request failed');
  }
  return renderError(request, reply, apiError);
}
