import http from 'node:http';
import https from 'node:https';

/**
 * One webhook POST to an operator-chosen URL (loopback and private addresses allowed: the operator
 * picked them, unlike a caller's `external_url`, src/net/publicUrl.ts). Never throws: a refused
 * connection, a timeout or a non-2xx answer is an outcome the delivery log records.
 *
 * node:http rather than fetch: it is loaded with the server, where fetch loads undici on its first
 * call, a pause long enough on a busy machine for a job's lease to lapse mid-send (and another
 * worker to send the same deliveries again). Kept-alive agents: a receiver gets many in a row.
 */
export interface PostOutcome {
  ok: boolean;
  /** The receiver's status, or null when none came back (refused, timed out). */
  status: number | null;
  latencyMs: number;
  error: string | null;
}

const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

export function postWebhook(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostOutcome> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Omit<PostOutcome, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, latencyMs: latency() });
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      settle({ ok: false, status: null, error: `not a URL: ${url}` });
      return;
    }
    const client = target.protocol === 'https:' ? https : http;
    let request: http.ClientRequest;
    const send = (retry: boolean) => {
      request = client.request(target, {
        method: 'POST',
        agent: agents[target.protocol === 'https:' ? 'https:' : 'http:'],
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Folio-Webhooks/1', ...headers },
      });
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        // Only the status counts (a redirect is not a delivery): the answer's body is drained unread.
        response.resume();
        const ok = status >= 200 && status < 300;
        settle({ ok, status, error: ok ? null : `the receiver answered ${status}` });
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive socket the receiver closed just as it was reused (the race Node's http docs
        // answer with request.reusedSocket): send once more on a new socket rather than wait a
        // minute for the delivery's next retry; deliveries are at least once in any case.
        if (retry && request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE') && !settled) return send(false);
        settle({ ok: false, status: null, error: `could not reach the receiver: ${error.message}` });
      });
      request.end(body);
    };
    const timer = setTimeout(() => {
      settle({ ok: false, status: null, error: `no answer within ${timeoutMs} ms` });
      request.destroy();
    }, timeoutMs);
    send(true);
  });
}
