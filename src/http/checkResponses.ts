import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from 'typebox';
import type { App } from './app.js';
import type { Logger } from '../logger.js';
import { isNewestVersion } from '../versioning/versions.js';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * For test runs (FOLIO_CHECK_RESPONSES=1): every 2xx newest-version body of a route that declares one is checked against
 * its route's `config.response` (src/schemas/<resource>.ts), so the whole suite holds the declared
 * schemas to what the server sends. A mismatch is logged and answered 500. Routes without a
 * schema (test-only routes a test file adds) are not checked. Checked on the bytes about to be sent (onSend), so bodies written as text, such as
 * search's spliced pages, are checked too; the normal path does not register this hook at all.
 */
export function checkResponses(app: App, log: Logger): void {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const compiled = new WeakMap<TSchema, ValidateFunction>();
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!isNewestVersion(request.apiVersion) || reply.statusCode >= 300) return done(null, payload);
    const schema = request.routeOptions.config.response;
    if (!schema) return done(null, payload);
    const route = `${request.method} ${request.routeOptions.url}`;
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
    const body: unknown = JSON.parse(Buffer.isBuffer(payload) ? payload.toString('utf8') : String(payload));
    if (validate(body)) return done(null, payload);
    log.error({ route, errors: validate.errors }, 'response does not match its schema');
    done(new Error(`response check: ${route} ${ajv.errorsText(validate.errors)}`));
  });
}
