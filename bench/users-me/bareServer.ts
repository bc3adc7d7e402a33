/**
 * The baseline for the users-me suite: plain Fastify, default options, one route answering the
 * JSON that Folio answered, re-serialised per request as Folio's handler result is.
 * Env: BARE_PORT, BARE_BODY_FILE (the bytes to mirror).
 */
import fs from 'node:fs';
import Fastify from 'fastify';

const body: unknown = JSON.parse(fs.readFileSync(process.env.BARE_BODY_FILE!, 'utf8'));
const app = Fastify({ logger: false });
app.get('/v1/users/me', async () => body);
await app.listen({ host: '127.0.0.1', port: Number(process.env.BARE_PORT) });

process.on('SIGTERM', () => {
  app.close().then(() => process.exit(0));
});
