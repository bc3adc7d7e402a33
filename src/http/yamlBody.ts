import type { FastifyInstance } from 'fastify';
import { parse } from 'yaml';
import { ApiError } from '../errors/registry.js';
import { screenBody } from './screenBody.js';

/** The media types a YAML body may come as: the registered one (RFC 9512) and two still in use. */
export const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml'];

/**
 * YAML bodies, besides JSON, on the admin plane (fixtures are often written in YAML, issue 26).
 * Read with the `yaml` package's core schema (JSON's types, no custom tags), then screened like a
 * JSON body, so the route's schema sees the same values either way.
 */
export function acceptYamlBodies(instance: FastifyInstance, bodyLimit: number): void {
  instance.addContentTypeParser(YAML_TYPES, { parseAs: 'string', bodyLimit }, (_request, body, done) => {
    let parsed: unknown;
    try {
      parsed = parse(String(body), { schema: 'core', maxAliasCount: 100 });
    } catch (error) {
      return done(new ApiError('invalid_json', `Error parsing YAML body: ${(error as Error).message.split('\n')[0]}`), undefined);
    }
    try {
      screenBody(parsed);
    } catch (error) {
      return done(error as Error, undefined);
    }
    done(null, parsed);
  });
}
