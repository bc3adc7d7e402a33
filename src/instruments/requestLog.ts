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
 * A request as its hook saw it answered. The hook runs on every request, so it keeps references
 * and the log shapes an entry (time, path, bodies cut and redacted) only when someone reads it.
 */
export interface AnsweredRequest {
  request_id: string;
  /** When it was answered, ms since the epoch. */
  at: number;
  method: string;
  /** The URL as requested, query string included. */
  url: string;
  route: string | null;
  connection_id: string | null;
  version: string | null;
  status: number;
  elapsed_ms: number;
  error_code: string | null;
  /** The parsed JSON body, if any; bounded in place when recorded (`bounded`). */
  request_body: unknown;
  /** The bytes or text sent; bounded in place when recorded. */
  response_body: unknown;
}

/**
 * A body bounded for keeping: text and bytes up to BODY_KEEP + 1 characters by reference (the
 * request is done with them), longer ones cut now, into a copy, so an entry never holds a large
 * answer alive; a parsed body as its JSON, which later code could otherwise change.
 */
function bounded(body: unknown): string | Buffer | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return body.length <= BODY_KEEP + 1 ? body : copied(body.slice(0, BODY_KEEP + 1));
  if (Buffer.isBuffer(body)) return body.length <= BODY_KEEP + 1 ? body : body.subarray(0, BODY_KEEP + 1).toString('utf8');
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
function shownBody(body: string | Buffer | null): string | null {
  if (body === null) return null;
  const text = typeof body === 'string' ? body : body.subarray(0, BODY_KEEP + 1).toString('utf8');
  if (text === '') return null;
  const cut = text.length > BODY_KEEP ? `${text.slice(0, BODY_KEEP)}…` : text;
  return SECRETS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), cut);
}

/** A body as the log shows it: text, cut to BODY_KEEP, secrets redacted. */
export function keptBody(body: unknown): string | null {
  return shownBody(bounded(body));
}

function shownEntry(entry: AnsweredRequest): LoggedRequest {
  return {
    request_id: entry.request_id,
    time: new Date(entry.at).toISOString(),
    method: entry.method,
    path: entry.url.split('?', 1)[0]!,
    route: entry.route,
    connection_id: entry.connection_id,
    version: entry.version,
    status: entry.status,
    duration_ms: Math.round(entry.elapsed_ms * 100) / 100,
    error_code: entry.error_code,
    request_body: shownBody(entry.request_body as string | Buffer | null),
    response_body: shownBody(entry.response_body as string | Buffer | null),
  };
}

export interface RequestFilter {
  connectionId?: string;
  status?: number;
  limit: number;
}

export type RequestListener = (entry: LoggedRequest) => void;

export class RequestLog {
  private readonly ring: (AnsweredRequest | undefined)[];
  /** Each entry as shown, once read (the console reads the same entries again and again). */
  private readonly shown: (LoggedRequest | undefined)[];
  private next = 0;
  private readonly listeners = new Set<RequestListener>();

  constructor(readonly capacity: number) {
    this.ring = new Array<AnsweredRequest | undefined>(Math.max(0, capacity));
    this.shown = new Array<LoggedRequest | undefined>(Math.max(0, capacity));
  }

  /**
   * Keeps `entry` itself, its bodies bounded in place: every entry outlives a young-generation
   * collection, which copies it, so the log allocates nothing more per request.
   */
  record(entry: AnsweredRequest): void {
    entry.request_body = bounded(entry.request_body);
    entry.response_body = bounded(entry.response_body);
    if (this.ring.length > 0) {
      this.ring[this.next] = entry;
      this.shown[this.next] = undefined;
      this.next = (this.next + 1) % this.ring.length;
    }
    if (this.listeners.size > 0) {
      const shown = shownEntry(entry);
      for (const listener of this.listeners) listener(shown);
    }
  }

  private shownAt(index: number): LoggedRequest {
    return (this.shown[index] ??= shownEntry(this.ring[index]!));
  }

  /** Newest first. */
  list(filter: RequestFilter): LoggedRequest[] {
    const out: LoggedRequest[] = [];
    for (let i = 1; i <= this.ring.length && out.length < filter.limit; i++) {
      const index = (this.next - i + this.ring.length) % this.ring.length;
      const entry = this.ring[index];
      if (!entry) break;
      if (filter.connectionId !== undefined && entry.connection_id !== filter.connectionId) continue;
      if (filter.status !== undefined && entry.status !== filter.status) continue;
      out.push(this.shownAt(index));
    }
    return out;
  }

  clear(): void {
    this.ring.fill(undefined);
    this.shown.fill(undefined);
    this.next = 0;
  }

  /** Calls `listener` with every request recorded from now on, until the returned function is called. */
  subscribe(listener: RequestListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
