import { ApiError } from '../errors/registry.js';
import type { Store } from '../storage/createStore.js';
import type { CallerRows } from '../storage/callerLookup.js';
import { liveTokenHash } from '../storage/repositories/connections.js';
import { CONTENT_CAPABILITIES, type Capability, type Caller } from './capabilities.js';
import { hashesMatch, hashToken } from './tokens.js';

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{1,512})$/;

export function bearerToken(header: string | undefined): string {
  const match = header ? BEARER.exec(header.trim()) : null;
  if (!match) throw new ApiError('unauthorized', 'Authorization header must use the format "Bearer <token>".');
  return match[1];
}

/** Callers built from rows the store handed out before (it returns the same object while they are current). */
const callers = new WeakMap<CallerRows, Caller>();

function toCaller(hash: string, rows: CallerRows | undefined): Caller {
  const row = rows?.connection;
  if (!rows || !row || !hashesMatch(hash, row.token_hash)) throw new ApiError('unauthorized');
  const known = callers.get(rows);
  if (known) return known;
  const capabilities = (JSON.parse(row.capabilities) as string[]).filter((c): c is Capability => (CONTENT_CAPABILITIES as readonly string[]).includes(c));
  const caller: Caller = {
    connectionId: row.id,
    connectionName: row.name,
    workspaceId: row.workspace_id,
    kind: row.kind,
    capabilities: new Set(capabilities),
    userInfo: row.user_info,
    userId: row.user_id,
    botId: row.bot_id,
    rows,
  };
  callers.set(rows, caller);
  return caller;
}

/**
 * Resolves a bearer token to its connection. A revoked connection must stop working at once on
 * every instance, so nothing is remembered here beyond what the store vouches is still current
 * (storage/callerLookup.ts: SQLite's write stamp, PostgreSQL's notices and window). Answers
 * synchronously when the store does (SQLite, and PostgreSQL for a remembered caller), so the
 * request hook needs no promise; throws `unauthorized` either way.
 */
export function authenticate(store: Store, header: string | undefined): Caller | Promise<Caller> {
  const hash = hashToken(bearerToken(header));
  const found = store.findCaller(hash);
  return found instanceof Promise ? found.then((rows) => toCaller(hash, rows)) : toCaller(hash, found);
}

export function requireCapability(caller: Caller, capability: Capability): void {
  if (!caller.capabilities.has(capability)) {
    throw new ApiError('restricted_resource', `API token does not have access to this resource: it lacks the ${capability} capability.`);
  }
}

/**
 * The caller a connection is now, for work done on its behalf after its request (async tasks):
 * found through its token as a request is, so a connection revoked meanwhile is `unauthorized`,
 * the answer its own request would get.
 */
export async function callerOfConnection(store: Store, connectionId: string): Promise<Caller> {
  const hash = await liveTokenHash(store.db, connectionId);
  if (!hash) throw new ApiError('unauthorized');
  return toCaller(hash, await store.findCaller(hash));
}
