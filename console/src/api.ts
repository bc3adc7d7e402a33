import type { AdminList, Connection, Issued } from './types.ts';
// A tiny module with no imports: bundling it keeps the console on the server's newest version.
import { LATEST_VERSION } from '../../src/versioning/versions.ts';

const TOKEN_KEY = 'folio.adminToken';
/** The newest API version: the console reads `/v1` as a current integration would. */
export const API_VERSION = LATEST_VERSION;
export const CONSOLE_CONNECTION_NAME = 'Folio console';

/** An error answer from Folio (the spec's error body), or a network failure. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Kept in sessionStorage only: it leaves with the tab, and no other site or tab reads it. */
export const adminToken = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith('folio.')) sessionStorage.removeItem(key);
  },
};

interface Init {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** A body sent as it is (a fixture file's text) with its own content type, rather than as JSON. */
  raw?: { text: string; type: string };
}

async function call<T>(path: string, token: string, init: Init = {}): Promise<T> {
  let response: Response;
  for (let attempt = 0; ; attempt++) {
    response = await send(path, token, init);
    // The /v1 rate limit is per connection (3 requests/s by default): a page of many blocks can
    // outrun it, so wait as the answer says and try again, as the official SDK does.
    if (response.status !== 429 || attempt >= 6) break;
    await new Promise((resolve) => setTimeout(resolve, Math.min(Number(response.headers.get('retry-after')) || 1, 10) * 1000));
  }
  const text = await response.text();
  const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!response.ok) throw new ApiFailure(response.status, String(json.code ?? 'error'), String(json.message ?? response.statusText));
  return json as T;
}

async function send(path: string, token: string, init: Init): Promise<Response> {
  try {
    return await fetch(path, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.raw ? { 'content-type': init.raw.type } : {}),
        ...init.headers,
      },
      body: init.raw ? init.raw.text : init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch (error) {
    throw new ApiFailure(0, 'network_error', `Folio did not answer: ${(error as Error).message}`);
  }
}

type Query = Record<string, string | number | undefined | null>;
const withQuery = (path: string, query: Query = {}) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const q = params.toString();
  return q ? `${path}?${q}` : path;
};

/** The admin plane, `/admin/v1`, with the signed-in token. */
export const admin = {
  get: <T>(path: string, query?: Query) => call<T>(withQuery(`/admin/v1${path}`, query), adminToken.get() ?? ''),
  post: <T>(path: string, body: unknown = {}) => call<T>(`/admin/v1${path}`, adminToken.get() ?? '', { method: 'POST', body }),
  patch: <T>(path: string, body: unknown) => call<T>(`/admin/v1${path}`, adminToken.get() ?? '', { method: 'PATCH', body }),
  delete: <T>(path: string) => call<T>(`/admin/v1${path}`, adminToken.get() ?? '', { method: 'DELETE' }),
  postText: <T>(path: string, text: string, type: string) => call<T>(`/admin/v1${path}`, adminToken.get() ?? '', { method: 'POST', raw: { text, type } }),
};

/** After a reset the console's own connections are gone: forget their tokens so the next read makes new ones. */
export function forgetConsoleConnections(): void {
  for (const key of Object.keys(sessionStorage)) if (key.startsWith('folio.console.')) sessionStorage.removeItem(key);
}

/** Checks a token against the admin plane before keeping it. */
export async function signIn(token: string): Promise<void> {
  await call('/admin/v1/workspaces?page_size=1', token);
  adminToken.set(token);
}

/**
 * Reading content goes through `/v1`, so a page is rendered and a database queried exactly as an
 * integration sees them (the same presenters, the same query planner, signed file links). The
 * console keeps one internal connection per workspace for this, "Folio console", whose token it
 * rotates at sign-in and keeps in sessionStorage; it shares with it the top-level page or database
 * an operator opens (docs/decisions.md, "Console reads").
 */
async function consoleConnection(workspaceId: string): Promise<{ id: string; token: string }> {
  const key = `folio.console.${workspaceId}`;
  const kept = sessionStorage.getItem(key);
  if (kept) return JSON.parse(kept) as { id: string; token: string };
  let cursor: string | null = null;
  let found: Connection | undefined;
  do {
    const page: AdminList<Connection> = await admin.get(`/workspaces/${workspaceId}/connections`, { start_cursor: cursor });
    found = page.results.find((c) => c.name === CONSOLE_CONNECTION_NAME && c.kind === 'internal');
    cursor = page.next_cursor;
  } while (!found && cursor);
  const issued = found
    ? await admin.post<Issued>(`/connections/${found.id}/token`)
    : await admin.post<Issued>(`/workspaces/${workspaceId}/connections`, {
        name: CONSOLE_CONNECTION_NAME,
        kind: 'internal',
        capabilities: ['read_content', 'update_content', 'insert_content', 'read_comments', 'user_info_without_email'],
      });
  const held = { id: issued.id, token: issued.token };
  sessionStorage.setItem(key, JSON.stringify(held));
  return held;
}

/** The ids of the console's own connections, so the request log can set their requests apart. */
export function consoleConnectionIds(): Set<string> {
  const ids = new Set<string>();
  for (const key of Object.keys(sessionStorage)) if (key.startsWith('folio.console.')) ids.add((JSON.parse(sessionStorage.getItem(key)!) as { id: string }).id);
  return ids;
}

const shared = new Set<string>();
/** Shares a top-level object with the console's connection (once per session). */
export async function shareWithConsole(workspaceId: string, objectId: string): Promise<void> {
  if (shared.has(objectId)) return;
  const { id } = await consoleConnection(workspaceId);
  await admin.post(`/connections/${id}/grants`, { object_id: objectId });
  shared.add(objectId);
}

export function v1(workspaceId: string) {
  const send = async <T>(method: string, path: string, body?: unknown, query?: Query): Promise<T> => {
    const { token } = await consoleConnection(workspaceId);
    return call<T>(withQuery(`/v1${path}`, query), token, { method, body, headers: { 'notion-version': API_VERSION } });
  };
  return {
    get: <T>(path: string, query?: Query) => send<T>('GET', path, undefined, query),
    post: <T>(path: string, body: unknown) => send<T>('POST', path, body),
    patch: <T>(path: string, body: unknown) => send<T>('PATCH', path, body),
  };
}
