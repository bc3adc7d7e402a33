/**
 * Faults on demand (issue 26): an operator tells this instance to answer the next matching `/v1`
 * requests with an error status, or to answer them late, so a client's retry code can be exercised.
 * Kept in memory: each instance has its own, and a restart clears them (docs/decisions.md).
 */

/** What the operator gives; every matcher left out matches any request. */
export interface FaultSpec {
  connection_id?: string;
  method?: string;
  /** A prefix of the request path (`/v1/pages` matches `/v1/pages/abc`). */
  path?: string;
  /** The error to answer with; none adds only latency. */
  status?: number;
  latency_ms?: number;
  /** How many matching requests it affects; unlimited when left out. */
  count?: number;
  /** The share of matching requests it affects (1 = every one). */
  ratio?: number;
  /** Seconds, sent as Retry-After with the error. */
  retry_after?: number;
}

export interface Fault extends FaultSpec {
  id: string;
  created_time: string;
  /** Requests it has affected so far. */
  hits: number;
}

export interface FaultRequest {
  method: string;
  path: string;
  connectionId: string;
}

export class FaultTable {
  private readonly faults = new Map<string, Fault>();

  constructor(private readonly random: () => number = Math.random) {}

  add(spec: FaultSpec, id: string, now: string): Fault {
    const fault: Fault = { id, ...spec, created_time: now, hits: 0 };
    this.faults.set(id, fault);
    return fault;
  }

  list(): Fault[] {
    return [...this.faults.values()];
  }

  remove(id: string): Fault | null {
    const fault = this.faults.get(id) ?? null;
    this.faults.delete(id);
    return fault;
  }

  clear(): number {
    const n = this.faults.size;
    this.faults.clear();
    return n;
  }

  get size(): number {
    return this.faults.size;
  }

  /** The first fault that takes this request, counted as used (and dropped when used up). */
  take(request: FaultRequest): Fault | null {
    for (const fault of this.faults.values()) {
      if (!matches(fault, request)) continue;
      if (fault.ratio !== undefined && this.random() >= fault.ratio) continue;
      fault.hits += 1;
      if (fault.count !== undefined && fault.hits >= fault.count) this.faults.delete(fault.id);
      return fault;
    }
    return null;
  }
}

function matches(fault: Fault, request: FaultRequest): boolean {
  if (fault.connection_id !== undefined && fault.connection_id !== request.connectionId) return false;
  if (fault.method !== undefined && fault.method.toUpperCase() !== request.method) return false;
  if (fault.path !== undefined && !request.path.startsWith(fault.path)) return false;
  return true;
}
