/**
 * What the latency benchmarks (search, query) share: Folio started on an existing store with
 * Fastify's per-request timings captured from its log, and a one-request-at-a-time HTTP client.
 */
import http from 'node:http';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { cleanEnv, freePort, REPO_ROOT, spawnServer, type ServerProcess } from './processes.js';

export interface TimedServer extends ServerProcess {
  /** Fastify's responseTime (ms) by request id, from the server's log. */
  responseTimes: Map<string, number>;
}

/** The compiled server (`<entry> serve`) on the store in dataDir, or the one DATABASE_URL names. */
export async function startTimedServer(options: { dataDir: string; entry: string; profile?: boolean; env?: Record<string, string> }): Promise<TimedServer> {
  const port = await freePort();
  const env = cleanEnv((name) => name.startsWith('FOLIO_') || name === 'DATABASE_URL' || name === 'REDIS_URL');
  Object.assign(env, {
    FOLIO_HOST: '127.0.0.1',
    FOLIO_PORT: String(port),
    FOLIO_DATA_DIR: options.dataDir,
    // info: Fastify logs one "request completed" line per request with its responseTime.
    FOLIO_LOG_LEVEL: 'info',
    FOLIO_RATE_LIMIT: '1000000',
    FOLIO_ADMIN_TOKEN: `bench-${randomBytes(16).toString('hex')}`,
    // One process unless the run asks for more (FOLIO_PROCESSES=2 npm run bench -- …): earlier figures are of one.
    FOLIO_PROCESSES: process.env.FOLIO_PROCESSES ?? '1',
    ...options.env,
  });
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  const profile = options.profile ? ['--cpu-prof', '--cpu-prof-dir', path.join(REPO_ROOT, '.bench', 'profiles')] : [];
  const server = await spawnServer({ name: 'folio', args: [...profile, options.entry, 'serve'], env, port, readyPath: '/readyz', timeoutMs: 120_000 });
  const responseTimes = new Map<string, number>();
  let pending = '';
  server.child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('responseTime')) continue;
      try {
        const entry = JSON.parse(line) as { reqId?: string; responseTime?: number };
        if (entry.reqId && typeof entry.responseTime === 'number') responseTimes.set(entry.reqId, entry.responseTime);
      } catch {
        // not a log line of ours
      }
    }
  });
  return { ...server, responseTimes };
}

export interface TimedResponse<T> {
  /** ms from sending the request until the last byte of the response arrived. */
  elapsed: number;
  status: number;
  requestId: string;
  body: T;
}

/**
 * POSTs JSON at the newest version over one kept-alive connection, one request at a time.
 * node:http rather than fetch: fetch's web streams add about a millisecond per 100 KB response on
 * this machine, the client's cost rather than the server's.
 */
export function jsonClient(baseUrl: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL(baseUrl);
  const post = <T>(urlPath: string, token: string, payload: unknown) =>
    new Promise<TimedResponse<T>>((resolve, reject) => {
      const text = JSON.stringify(payload);
      const started = performance.now();
      const req = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: urlPath,
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'notion-version': LATEST_VERSION,
            'content-length': Buffer.byteLength(text),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            // End to end is until the last byte arrives; parsing the JSON is the client's own work.
            const elapsed = performance.now() - started;
            try {
              const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
              resolve({ elapsed, status: response.statusCode ?? 0, requestId: String(response.headers['x-request-id'] ?? ''), body });
            } catch (error) {
              reject(error instanceof Error ? error : new Error(String(error)));
            }
          });
        },
      );
      req.on('error', reject);
      req.end(text);
    });
  return { post, close: () => agent.destroy() };
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
