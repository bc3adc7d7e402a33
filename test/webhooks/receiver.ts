/**
 * A webhook receiver for tests: a node:http server on a free port that keeps every request's raw
 * body and headers, verifies each event with the SDK's verifyWebhookSignature, and can be told to
 * be down (answer 503), to refuse connections (closed) or to hang (never answer).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import assert from 'node:assert/strict';
import { verifyWebhookSignature } from '@notionhq/client';
import type { TestServer } from '../helpers/server.js';
import { admin } from '../helpers/factories.js';

type Json = Record<string, any>;

export interface Received {
  raw: string;
  body: Json;
  signature: string | undefined;
}

export type Mode = 'up' | 'down' | 'hang';

export class Receiver {
  readonly requests: Received[] = [];
  mode: Mode = 'up';
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (this.mode === 'hang') return;
      if (this.mode === 'down') {
        res.writeHead(503).end('down');
        return;
      }
      // A file that answers HEAD but not GET: an `external_url` import that fails after its probe.
      if (req.url === '/flaky.png') {
        res.writeHead(req.method === 'HEAD' ? 200 : 404, { 'content-type': 'image/png' }).end();
        return;
      }
      if (req.url !== '/hook') {
        res.writeHead(404).end('not here');
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      const signature = req.headers['x-notion-signature'];
      this.requests.push({ raw, body: JSON.parse(raw) as Json, signature: typeof signature === 'string' ? signature : undefined });
      res.writeHead(200).end('ok');
    });
  });
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The handshake's token, once it arrived. */
  async verificationToken(): Promise<string> {
    const found = await this.waitFor((r) => typeof r.body.verification_token === 'string');
    return found[0].body.verification_token as string;
  }

  /** Events (not handshakes) received so far. */
  events(): Received[] {
    return this.requests.filter((r) => r.body.verification_token === undefined);
  }

  async waitFor(match: (r: Received) => boolean, count = 1, timeoutMs = 15_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.requests.filter(match);
      if (found.length >= count) return found;
      if (Date.now() > deadline)
        throw new Error(`expected ${count} matching requests; got ${found.length} of ${JSON.stringify(this.requests.map((r) => r.body.type ?? 'handshake'))}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Every event received verifies with the SDK against `token`. */
  async assertSigned(token: string): Promise<void> {
    for (const event of this.events()) {
      assert.ok(await verifyWebhookSignature({ body: event.raw, signature: event.signature, verificationToken: token }), `unsigned: ${event.raw}`);
    }
  }
}

/** Creates a subscription for `connectionId` at the receiver, waits for the handshake, verifies it; answers it with its token. */
export async function subscribe(server: TestServer, receiver: Receiver, connectionId: string, more: Json = {}): Promise<{ subscription: Json; token: string }> {
  const before = receiver.requests.length;
  const created = await admin(server, 'POST', '/webhooks', { connection_id: connectionId, url: receiver.url, ...more });
  assert.equal(created.status, 'pending');
  const [handshake] = await receiver.waitFor((r) => receiver.requests.indexOf(r) >= before && typeof r.body.verification_token === 'string');
  const token = handshake.body.verification_token as string;
  const verified = await admin(server, 'POST', `/webhooks/${created.id}/verify`, { verification_token: token });
  assert.equal(verified.status, 'active');
  return { subscription: verified, token };
}
