import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors/registry.js';
import { screenBody } from './screenBody.js';

/** FACTS.md §6: payloads are limited to 500 KB; the parser refuses more before reading it all. */
export const BODY_LIMIT = 500 * 1024;

/**
 * Makes JSON the only body this instance (and what it registers) reads, up to `bodyLimit`
 * bytes. Content-type parsers are encapsulated, so each plane states its own, and one that reads
 * something else (multipart uploads, issue 13) replaces them without touching the others.
 */
export function acceptJsonBodies(instance: FastifyInstance, bodyLimit: number): void {
  // Only JSON is read; a text/plain body must be refused as such, not validated as a string.
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (_request, body, done) => {
    // An empty JSON body is treated as {} (the SDK sends none for body-less calls); anything else
    // must parse, or the answer is invalid_json.
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(new ApiError('invalid_json'), undefined);
    }
    try {
      screenBody(parsed);
    } catch (error) {
      return done(error as Error, undefined);
    }
    done(null, parsed);
  });
}
