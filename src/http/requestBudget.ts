import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/registry.js';

/**
 * A request's whole time budget, body and handler (FOLIO_REQUEST_TIMEOUT_MS): past it the client
 * gets 504 gateway_timeout once, while the work runs to its end or its rollback (docs/decisions.md
 * "Request time budget"). Fastify's `handlerTimeout` does the same with an AbortController, a timer
 * and a close listener per request: about 3–4 µs each on Node 20, a tenth of all `GET /v1/users/me`
 * costs (docs/benchmarks.md, "users-me: the per-request costs found on 2026-11-27"). Here the
 * requests in flight sit in one map, in the order they came, swept a few times per budget: a
 * request is answered within a tenth of the budget (at most a second) after it runs out.
 */
export class RequestBudget {
  private readonly inFlight = new Map<FastifyReply, number>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly budgetMs: number) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(10, Math.min(1000, Math.floor(budgetMs / 10))));
    this.sweeper.unref();
  }

  start(request: FastifyRequest, reply: FastifyReply): void {
    // An operator's imports and resets take as long as the data they carry: no budget.
    if (request.url.startsWith('/admin/')) return;
    this.inFlight.set(reply, performance.now());
  }

  end(reply: FastifyReply): void {
    this.inFlight.delete(reply);
  }

  close(): void {
    clearInterval(this.sweeper);
    this.inFlight.clear();
  }

  private sweep(): void {
    const now = performance.now();
    // Insertion order is arrival order: the first request still within its budget ends the sweep.
    for (const [reply, started] of this.inFlight) {
      if (now - started < this.budgetMs) return;
      this.inFlight.delete(reply);
      if (reply.sent || reply.raw.destroyed) continue;
      // Its answer has begun (a stream): no second status line can follow, so the connection ends.
      if (reply.raw.headersSent) reply.raw.destroy();
      // Fastify runs no later hook nor the handler of a request already answered.
      else reply.send(new ApiError('gateway_timeout'));
    }
  }
}
