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
  /** The request's JSON body and the answer's, each cut to BODY_KEEP characters, secrets redacted (`keptBody`); null when there was none. */
  request_body: string | null;
  response_body: string | null;
}

/** How much of each body an entry keeps: enough to read a request, bounded so the ring's memory is too. */
export const BODY_KEEP = 4096;

/**
 * Secrets in a body as the log keeps it: Folio tokens (`folio_` + 43 characters, src/auth/tokens.ts),
 * token and secret fields (OAuth answers, issued tokens), and the signature of a hosted file's link
 * (the link is the credential). Matched on the cut text, so a secret cut in half is still hidden.
 */
const SECRETS: readonly [RegExp, string][] = [
  [/folio_[A-Za-z0-9_-]+/g, 'folio_[redacted]'],
  [/("(?:token|access_token|refresh_token|client_secret|secret|password)"\s*:\s*")[^"]*/g, '$1[redacted]'],
  [/([?&]signature=)[^&"\s]+/g, '$1[redacted]'],
];

/** A body as the log keeps it: text, cut to BODY_KEEP, secrets redacted. */
export function keptBody(body: unknown): string | null {
  if (body === undefined || body === null) return null;
  let text: string;
  if (typeof body === 'string') text = body.slice(0, BODY_KEEP + 1);
  else if (Buffer.isBuffer(body)) text = body.subarray(0, BODY_KEEP + 1).toString('utf8');
  else {
    try {
      text = JSON.stringify(body) ?? '';
    } catch {
      return null;
    }
  }
  if (text === '') return null;
  const cut = text.length > BODY_KEEP ? `${text.slice(0, BODY_KEEP)}…` : text;
  return SECRETS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), cut);
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
