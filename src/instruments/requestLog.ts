/**
 * The last requests this instance answered (issue 26), for the admin plane and the console's live
 * view. A ring of fixed size, so memory stays bounded however long the server runs.
 */
export interface LoggedRequest {
  request_id: string;
  time: string;
  method: string;
  path: string;
  /** The route's pattern (`/v1/pages/:page_id`), null when no route matched. */
  route: string | null;
  connection_id: string | null;
  version: string | null;
  status: number;
  duration_ms: number;
  /** The error code of a failed request. */
  error_code: string | null;
}

export interface RequestFilter {
  connectionId?: string;
  status?: number;
  limit: number;
}

export type RequestListener = (entry: LoggedRequest) => void;

export class RequestLog {
  private readonly ring: (LoggedRequest | undefined)[];
  private next = 0;
  private readonly listeners = new Set<RequestListener>();

  constructor(readonly capacity: number) {
    this.ring = new Array<LoggedRequest | undefined>(Math.max(0, capacity));
  }

  record(entry: LoggedRequest): void {
    if (this.ring.length > 0) {
      this.ring[this.next] = entry;
      this.next = (this.next + 1) % this.ring.length;
    }
    for (const listener of this.listeners) listener(entry);
  }

  /** Newest first. */
  list(filter: RequestFilter): LoggedRequest[] {
    const out: LoggedRequest[] = [];
    for (let i = 1; i <= this.ring.length && out.length < filter.limit; i++) {
      const entry = this.ring[(this.next - i + this.ring.length) % this.ring.length];
      if (!entry) break;
      if (filter.connectionId !== undefined && entry.connection_id !== filter.connectionId) continue;
      if (filter.status !== undefined && entry.status !== filter.status) continue;
      out.push(entry);
    }
    return out;
  }

  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
  }

  /** Calls `listener` with every request recorded from now on, until the returned function is called. */
  subscribe(listener: RequestListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
