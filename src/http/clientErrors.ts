import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/registry.js';
import { newId } from '../ids/ids.js';
import type { Logger } from '../logger.js';
import { renderError } from './errorHandler.js';

/**
 * Node's limit on a request line and its headers together, stated here so the message can say it
 * (Node's own default, 16 KB). A URL longer than this is refused by Node's parser before Fastify
 * sees it, so it is also the longest URL served.
 */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * How long a request may take to arrive, headers and body. Fastify turns Node's limit (300 s) off
 * by default; without one, a body shorter than its Content-Length holds a connection forever. Past
 * it, Node's parser refuses the request and answerClientError answers.
 */
export const REQUEST_TIMEOUT_MS = 300_000;

/**
 * The longest path segment the router matches (find-my-way's `maxParamLength`). Ids are 36
 * characters and property ids a few more; above this a segment is no id of anything, and the
 * answer is the URL's, not a validation of the parameter.
 */
export const MAX_PARAM_LENGTH = 1000;

/**
 * Whether the bytes that overflowed are mostly a request line (a URL): the packet's first line
 * never ends, or takes more than half the limit. Node hands the packet as a Buffer (Fastify's type
 * says otherwise). Only the message depends on it.
 */
function longRequestLine(packet: unknown): boolean {
  if (!Buffer.isBuffer(packet)) return false;
  const end = packet.indexOf('\r\n');
  return end < 0 || end > MAX_HEADER_BYTES / 2;
}

/**
 * What a request that Node's HTTP parser refused answers, by llhttp's error code. The registry has
 * no 414, 431 or 408: each becomes the 400 code of the spec's table that says what was wrong
 * (docs/decisions.md, "Framework errors").
 */
function refusalOf(error: ConnectionError): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      if (longRequestLine((error as { rawPacket?: unknown }).rawPacket))
        return new ApiError('invalid_request_url', `Invalid request URL: the URL is longer than ${MAX_HEADER_BYTES / 1024} KB.`);
      return new ApiError('invalid_request', `Unsupported request: the request line and headers are larger than ${MAX_HEADER_BYTES / 1024} KB.`);
    case 'HPE_INVALID_METHOD':
      // A method HTTP does not know answers as a wrong method does (FACTS.md §6).
      return new ApiError('invalid_request_url');
    case 'HPE_INVALID_URL':
      return new ApiError('invalid_request_url');
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError('invalid_request', 'Unsupported request: the Content-Length or Transfer-Encoding header does not describe the body.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('invalid_request', 'Unsupported request: the request was not received in time.');
    default:
      return new ApiError('invalid_request', 'Unsupported request: the request is not valid HTTP/1.1.');
  }
}

/**
 * Fastify's `clientErrorHandler`: a request Node's parser refused (a malformed request line, an
 * unknown method, headers or a URL over the limit, bytes left over after a Content-Length) never
 * reaches Fastify, so it is answered here, on the socket, in the spec's error body with a request
 * id of its own, and the connection is closed (the parser's state is lost).
 */
export function answerClientError(log: Logger): (error: ConnectionError, socket: Socket) => void {
  return (error, socket) => {
    // A reset connection has no one to answer; Node's own handler does the same.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const apiError = refusalOf(error);
    const requestId = newId();
    log.debug({ reqId: requestId, code: error.code, answer: apiError.code }, 'request refused by the HTTP parser');
    if (socket.writable) {
      const body = JSON.stringify({ object: 'error', status: apiError.status, code: apiError.code, message: apiError.message, request_id: requestId });
      socket.write(
        `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status] ?? 'Error'}\r\n` +
          'content-type: application/json; charset=utf-8\r\n' +
          `content-length: ${Buffer.byteLength(body)}\r\n` +
          `x-request-id: ${requestId}\r\n` +
          'connection: close\r\n\r\n' +
          body,
      );
    }
    socket.destroy(error);
  };
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot read (`%ZZ`, a segment over
 * MAX_PARAM_LENGTH) is refused before any hook runs, so the answer is rendered here.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const apiError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ApiError('invalid_request_url', `Invalid request URL: a path segment is longer than ${MAX_PARAM_LENGTH} characters.`)
      : new ApiError('invalid_request_url');
  void renderError(request, reply, apiError);
}
