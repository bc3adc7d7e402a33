import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { PACKAGE_ROOT } from '../packageInfo.js';

/** Where `scripts/buildConsole.mjs` writes the console (`npm start` builds it when its sources changed). */
export const CONSOLE_DIST = path.join(PACKAGE_ROOT, 'dist', 'console');

/**
 * The console's own policy: its scripts and styles come from Folio only (no CDN, usable offline)
 * and it calls only Folio; pictures and recordings in pages may live anywhere, as in the service.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src * data: blob:; media-src *; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * `/console`: the web console (issue 28), static files built from console/. It holds no secret and
 * calls the admin plane with the token the operator types in, so serving it needs no authentication.
 */
export const consolePlane: FastifyPluginAsync = async (plane) => {
  if (!fs.existsSync(path.join(CONSOLE_DIST, 'index.html'))) {
    plane.get('/console', async (_request, reply) =>
      reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The console is not built. `npm start` builds it; or run `node scripts/buildConsole.mjs` and restart.\n'),
    );
    return;
  }
  await plane.register(fastifyStatic, {
    root: CONSOLE_DIST,
    prefix: '/console/',
    // The router ignores trailing slashes, so /console and /console/ are one route, declared below.
    index: false,
    redirect: false,
    wildcard: true,
    // Assets are named by their content's hash: a new build has new names, so they never change.
    maxAge: '365d',
    immutable: true,
    setHeaders: (res) => {
      res.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
      res.setHeader('x-content-type-options', 'nosniff');
      res.setHeader('referrer-policy', 'no-referrer');
    },
  });
  // The page names this build's assets, so it is revalidated every time.
  plane.get('/console', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false }));
};
