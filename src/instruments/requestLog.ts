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

/**
 * A body bounded for keeping: text up to BODY_KEEP + 1 characters by reference (the request is
 * done with it), longer text and any bytes cut now, into a copy, so an entry never holds a large
 * answer alive; a parsed body as its JSON, which later code could otherwise change.
 */
function bounded(body: unknown): string | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return body.length <= BODY_KEEP + 1 ? body : copied(body.slice(0, BODY_KEEP + 1));
  // Bytes as text: a small Buffer is usually a view on Node's shared 8 KB pool, which it would keep alive.
  if (Buffer.isBuffer(body)) return body.subarray(0, BODY_KEEP + 1).toString('utf8');
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch {
    return null;
  }
  if (text === undefined) return null;
  return text.length <= BODY_KEEP + 1 ? text : copied(text.slice(0, BODY_KEEP + 1));
}

/** A string V8 would otherwise keep as a slice of the whole text it was cut from. */
function copied(slice: string): string {
  return Buffer.from(slice, 'utf8').toString('utf8');
}

/** A kept body as the log shows it: text, cut to BODY_KEEP, secrets redacted. */
function shownBody(text: string | null): string | null {
  if (text === null || text === '') return null;
  const cut = text.length > BODY_KEEP ? `${text.slice(0, BODY_KEEP)}…` : text;
  return SECRETS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), cut);
}

/** A body as the log shows it: text, cut to BODY_KEEP, secrets redacted. */
export function keptBody(body: unknown): string | null {
  return shownBody(bounded(body));
}

export interface RequestFilter {
  connectionId?: string;
  status?: number;
  limit: number;
}

export type RequestListener = (entry: LoggedRequest) => void;

/**
 * The ring, one array per field. Whatever a request leaves here outlives young-generation
 * collections, which copy it and then promote it: an entry object per request, and the closure or
 * strings made to fill it, cost users-me more than the hook's own work (docs/benchmarks.md,
 * "Request log and metrics, 2026-11-28"). Columns take numbers unboxed and strings by reference, so
 * recording allocates nothing but the bounded bodies.
 */
export class RequestLog {
  private readonly ids: (string | undefined)[];
  private readonly at: Float64Array;
  private readonly methods: string[];
  private readonly urls: string[];
  private readonly routes: (string | null)[];
  private readonly connections: (string | null)[];
  private readonly versions: (string | null)[];
  private readonly statuses: Uint16Array;
  private readonly elapsed: Float64Array;
  private readonly errors: (string | null)[];
  private readonly requestBodies: (string | null)[];
  private readonly responseBodies: (string | null)[];
  /** Each entry as shown, once read (the console reads the same entries again and again). */
  private readonly shown: (LoggedRequest | undefined)[];
  private next = 0;
  private readonly listeners = new Set<RequestListener>();

  constructor(readonly capacity: number) {
    const size = Math.max(0, capacity);
    const column = <T>(empty: T): T[] => new Array<T>(size).fill(empty);
    this.ids = column<string | undefined>(undefined);
    this.at = new Float64Array(size);
    this.methods = column('');
    this.urls = column('');
    this.routes = column<string | null>(null);
    this.connections = column<string | null>(null);
    this.versions = column<string | null>(null);
    this.statuses = new Uint16Array(size);
    this.elapsed = new Float64Array(size);
    this.errors = column<string | null>(null);
    this.requestBodies = column<string | null>(null);
    this.responseBodies = column<string | null>(null);
    this.shown = column<LoggedRequest | undefined>(undefined);
  }

  record(
    requestId: string,
    at: number,
    method: string,
    url: string,
    route: string | null,
    connectionId: string | null,
    version: string | null,
    status: number,
    elapsedMs: number,
    errorCode: string | null,
    requestBody: unknown,
    responseBody: unknown,
  ): void {
    if (this.capacity === 0) return;
    const i = this.next;
    this.ids[i] = requestId;
    this.at[i] = at;
    this.methods[i] = method;
    this.urls[i] = url;
    this.routes[i] = route;
    this.connections[i] = connectionId;
    this.versions[i] = version;
    this.statuses[i] = status;
    this.elapsed[i] = elapsedMs;
    this.errors[i] = errorCode;
    this.requestBodies[i] = bounded(requestBody);
    this.responseBodies[i] = bounded(responseBody);
    this.shown[i] = undefined;
    this.next = (i + 1) % this.capacity;
    if (this.listeners.size > 0) {
      const shown = this.shownAt(i);
      for (const listener of this.listeners) listener(shown);
    }
  }

  private shownAt(i: number): LoggedRequest {
    return (this.shown[i] ??= {
      request_id: this.ids[i]!,
      time: new Date(this.at[i]!).toISOString(),
      method: this.methods[i]!,
      path: this.urls[i]!.split('?', 1)[0]!,
      route: this.routes[i]!,
      connection_id: this.connections[i]!,
      version: this.versions[i]!,
      status: this.statuses[i]!,
      duration_ms: Math.round(this.elapsed[i]! * 100) / 100,
      error_code: this.errors[i]!,
      request_body: shownBody(this.requestBodies[i]!),
      response_body: shownBody(this.responseBodies[i]!),
    });
  }

  /** Newest first. */
  list(filter: RequestFilter): LoggedRequest[] {
    const out: LoggedRequest[] = [];
    for (let back = 1; back <= this.capacity && out.length < filter.limit; back++) {
      const i = (this.next - back + this.capacity) % this.capacity;
      if (this.ids[i] === undefined) break;
      if (filter.connectionId !== undefined && this.connections[i] !== filter.connectionId) continue;
      if (filter.status !== undefined && this.statuses[i] !== filter.status) continue;
      out.push(this.shownAt(i));
    }
    return out;
  }

  clear(): void {
    this.ids.fill(undefined);
    // Nothing else is read where there is no id; the bodies are let go so their memory is too.
    this.requestBodies.fill(null);
    this.responseBodies.fill(null);
    this.shown.fill(undefined);
    this.next = 0;
  }

  /** Calls `listener` with every request recorded from now on, until the returned function is called. */
  subscribe(listener: RequestListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
