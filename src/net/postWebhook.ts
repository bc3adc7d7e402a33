/**
 * One webhook POST to an operator-chosen URL (loopback and private addresses allowed: the operator
 * picked them, unlike a caller's `external_url`, src/net/publicUrl.ts). Never throws: a refused
 * connection, a timeout or a non-2xx answer is an outcome the delivery log records.
 */
export interface PostOutcome {
  ok: boolean;
  /** The receiver's status, or null when none came back (refused, timed out). */
  status: number | null;
  latencyMs: number;
  error: string | null;
}

export async function postWebhook(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostOutcome> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'user-agent': 'Folio-Webhooks/1', ...headers },
      // A redirect is not a delivery: the receiver answers where it was registered (non-2xx: retried).
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The answer's body is not read: only its status counts, and a large one must not hold the sender.
    await response.body?.cancel().catch(() => undefined);
    const ok = response.status >= 200 && response.status < 300;
    return { ok, status: response.status, latencyMs: latency(), error: ok ? null : `the receiver answered ${response.status}` };
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    return { ok: false, status: null, latencyMs: latency(), error: timedOut ? `no answer within ${timeoutMs} ms` : `could not reach the receiver: ${cause}` };
  }
}
