import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import type { ConnectionRow, UserRow, WorkspaceRow } from './schema.js';
import { listenForCallerChanges } from './callerListener.js';
import { callerChangesWritten, forgetOnLocalChange } from './callerChanges.js';
import { sqliteOtherWrites } from './writeStamp.js';

/** Everything one request needs to know about its caller, read in one statement. */
export interface CallerRows {
  connection: ConnectionRow;
  workspace: WorkspaceRow;
  bot: UserRow;
  owner: UserRow | null;
}

/** SQLite answers synchronously (no promise per request); PostgreSQL with a promise. */
export type CallerLookup = (tokenHash: string) => CallerRows | undefined | Promise<CallerRows | undefined>;

/**
 * The token lookup runs on every request, so it skips the query builder: one join, prepared once
 * (a cached better-sqlite3 statement; a named PostgreSQL statement, planned once per connection).
 * docs/benchmarks.md ("users-me") measured the builder path at 4 queries and ~95 µs a request.
 */
const SELECT = `select
  c.id as c_id, c.workspace_id as c_workspace_id, c.name as c_name, c.kind as c_kind, c.capabilities as c_capabilities,
  c.user_info as c_user_info, c.user_id as c_user_id, c.bot_id as c_bot_id, c.token_hash as c_token_hash, c.created_time as c_created_time,
  c.ai_credit_limit as c_ai_credit_limit, c.ai_credits_used as c_ai_credits_used,
  w.name as w_name, w.system_user_id as w_system_user_id, w.created_time as w_created_time, w.max_file_upload_bytes as w_max_file_upload_bytes,
  w.meeting_notes_enabled as w_meeting_notes_enabled, w.ai_credits as w_ai_credits,
  b.name as b_name, b.avatar_url as b_avatar_url, b.created_time as b_created_time,
  o.id as o_id, o.name as o_name, o.avatar_url as o_avatar_url, o.email as o_email, o.email_verified as o_email_verified,
  o.meeting_notes_enabled as o_meeting_notes_enabled, o.created_time as o_created_time
from connections c
join workspaces w on w.id = c.workspace_id
join users b on b.id = c.bot_id
left join users o on o.id = c.user_id
where c.token_hash = `;
const WHERE_LIVE = ' and c.revoked_time is null';

type Flat = Record<string, string | number | null>;

function toRows(r: Flat): CallerRows {
  const s = (k: string) => r[k] as string;
  const n = (k: string) => Number(r[k]);
  const connection: ConnectionRow = {
    id: s('c_id'),
    workspace_id: s('c_workspace_id'),
    name: s('c_name'),
    kind: s('c_kind') as ConnectionRow['kind'],
    capabilities: s('c_capabilities'),
    user_info: s('c_user_info') as ConnectionRow['user_info'],
    user_id: r.c_user_id as string | null,
    bot_id: s('c_bot_id'),
    token_hash: s('c_token_hash'),
    created_time: s('c_created_time'),
    revoked_time: null,
    ai_credit_limit: r.c_ai_credit_limit === null ? null : Number(r.c_ai_credit_limit),
    ai_credits_used: n('c_ai_credits_used'),
  };
  const workspace: WorkspaceRow = {
    id: connection.workspace_id,
    name: s('w_name'),
    system_user_id: s('w_system_user_id'),
    created_time: s('w_created_time'),
    max_file_upload_bytes: r.w_max_file_upload_bytes === null ? null : Number(r.w_max_file_upload_bytes),
    meeting_notes_enabled: n('w_meeting_notes_enabled'),
    ai_credits: r.w_ai_credits === null ? null : Number(r.w_ai_credits),
  };
  const bot: UserRow = {
    id: connection.bot_id,
    workspace_id: connection.workspace_id,
    type: 'bot',
    name: r.b_name as string | null,
    avatar_url: r.b_avatar_url as string | null,
    email: null,
    email_verified: 0,
    meeting_notes_enabled: 0,
    created_time: s('b_created_time'),
  };
  const owner: UserRow | null =
    r.o_id === null
      ? null
      : {
          id: s('o_id'),
          workspace_id: connection.workspace_id,
          type: 'person',
          name: r.o_name as string | null,
          avatar_url: r.o_avatar_url as string | null,
          email: r.o_email as string | null,
          email_verified: n('o_email_verified'),
          meeting_notes_enabled: n('o_meeting_notes_enabled'),
          created_time: s('o_created_time'),
        };
  return { connection, workspace, bot, owner };
}

/** At most this many callers are remembered; the oldest is forgotten first. */
const SQLITE_CALLER_CACHE_SIZE = 10_000;

/**
 * SQLite remembers the rows of tokens it has found, each with a stamp of what could change them
 * when it was read, and uses them only while the stamp is unchanged, so a revoked token is refused
 * at once, as without the cache: revocation through this server is seen by the very next request,
 * through another process by the next turn's. The stamp counts this process's caller changes
 * (every writer of a column a caller is read from goes through changingCallers, callerChanges.ts,
 * which counts it as it writes, before it commits), transactions undone (one may take back a
 * change a lookup saw) and other processes' commits (`data_version`, read once per event-loop
 * turn; writeStamp.ts). Not the store's write stamp: that moves with every write, and under
 * writes every request read its caller again. Unknown tokens are never remembered.
 */
export function sqliteCallerLookup(database: SQLite.Database, undone: () => number): CallerLookup {
  const statement = database.prepare(`${SELECT}?${WHERE_LIVE}`);
  const otherWrites = sqliteOtherWrites(database, true);
  const cache = new Map<string, { stamp: string; rows: CallerRows }>();
  return (tokenHash) => {
    const stamp = `${callerChangesWritten()}.${undone()}.${otherWrites()}`;
    const cached = cache.get(tokenHash);
    if (cached && cached.stamp === stamp) return cached.rows;
    const row = statement.get(tokenHash) as Flat | undefined;
    if (!row) {
      cache.delete(tokenHash);
      return undefined;
    }
    const rows = toRows(row);
    if (!cached && cache.size >= SQLITE_CALLER_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(tokenHash, { stamp, rows });
    return rows;
  };
}

/** How PostgreSQL remembers callers (docs/decisions.md, "Caller cache on PostgreSQL"). */
export interface PostgresCallerCacheOptions {
  /** The store's URL, for the listener's own connection. */
  url: string;
  /** How long a found caller is used without asking the store again; 0 remembers nothing. */
  windowMs: number;
}

export interface PostgresCallerLookup {
  lookup: CallerLookup;
  /** Ends the listener, if one was started. */
  close(): Promise<void>;
}

/** At most this many callers are remembered; the oldest is forgotten first. */
const POSTGRES_CALLER_CACHE_SIZE = 10_000;

/**
 * PostgreSQL remembers the rows of tokens it has found, so that most requests make no round trip
 * (docs/benchmarks.md, "users-me on PostgreSQL"). Every instance forgets them all when any
 * instance commits a change to what a token resolves to: writers send a notice in their own
 * transaction (callerChanges.ts), delivered at commit to the listener (callerListener.ts); the
 * writing instance forgets them as soon as its commit returns (forgetOnLocalChange), so its own
 * next request never waits for the notice. Two bounds for what a notice cannot cover:
 * - an entry is used for `windowMs` after the read that found it began, then read again (a write
 *   made outside Folio, or a notice that never came, is seen within that window);
 * - while the listener is not connected nothing is remembered and every request reads the store.
 * A read that began before a notice (or a listener drop) arrived is answered but not remembered:
 * it may have read the rows the notice is about. The listener is started by the first lookup, so
 * stores opened for a command (`folio admin`, `folio import`) hold no extra connection.
 * Unknown tokens are never remembered.
 */
export function postgresCallerLookup(pool: pg.Pool, options: PostgresCallerCacheOptions): PostgresCallerLookup {
  const text = `${SELECT}$1${WHERE_LIVE}`;
  const read = async (tokenHash: string) => {
    const result = await pool.query<Flat>({ name: 'folio_caller_lookup', text, values: [tokenHash] });
    return result.rows[0] ? toRows(result.rows[0]) : undefined;
  };
  if (options.windowMs <= 0) return { lookup: read, close: async () => undefined };

  const cache = new Map<string, { expires: number; rows: CallerRows }>();
  let listening = false;
  // Moves whenever what was read before may be stale: a notice, or the listener going or coming.
  let generation = 0;
  const forget = () => {
    generation += 1;
    cache.clear();
  };
  let listener: Promise<{ close(): Promise<void> }> | null = null;
  let closed = false;
  const unregister = forgetOnLocalChange(forget);
  const startListener = () =>
    listenForCallerChanges(options.url, {
      changed: forget,
      listening: (on) => {
        forget();
        listening = on;
      },
    });

  const lookup: CallerLookup = (tokenHash) => {
    if (listening) {
      const cached = cache.get(tokenHash);
      if (cached) {
        if (cached.expires > performance.now()) return cached.rows;
        cache.delete(tokenHash);
      }
    } else if (!listener && !closed) {
      listener = startListener();
    }
    const began = performance.now();
    const seen = generation;
    return read(tokenHash).then((rows) => {
      if (rows && listening && generation === seen) {
        if (cache.size >= POSTGRES_CALLER_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
        cache.set(tokenHash, { expires: began + options.windowMs, rows });
      }
      return rows;
    });
  };
  return {
    lookup,
    close: async () => {
      closed = true;
      unregister();
      const started = listener;
      listener = null;
      listening = false;
      forget();
      if (started) await (await started).close();
    },
  };
}
