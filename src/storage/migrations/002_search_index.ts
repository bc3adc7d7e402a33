import { sql, type Kysely } from 'kysely';
import { dialectOf, type DialectName } from '../dialect.js';

/**
 * The title search index of POST /v1/search (issue 4): one row per *version* of every searchable
 * object (pages, and data sources that are not linked duplicates), kept by triggers on `objects`,
 * so every write path of every command keeps it right in the same transaction without knowing it.
 *
 * Why versions. Search pages are ordered by last_edited_time, and an edit moves an object in that
 * order. A cursor carries a snapshot (see below); a page answers "the versions that were current at
 * the snapshot", so an object that existed when paging began has exactly one version in that set,
 * at a position that never changes, and keyset pagination over an immutable key walks that fixed
 * set: nothing appears twice and nothing is skipped, whatever is edited or created meanwhile. An
 * edit marks the current version removed and adds a new one; removed versions are pruned an hour
 * after removal (by the trigger itself), which bounds how long a paging session keeps the guarantee.
 *
 * `seq` is the sort key and the row's integer id, so it also serves as the FTS5 rowid (SQLite) and
 * FTS5 can stream matches already in sort order and stop after one page:
 *   seq = -ms(last_edited_time) * 2^21 + tiebreak (mod 2^21)
 * so ascending seq is newest first, and versions of the same millisecond are ordered by a counter.
 * ms is clamped to ±2^42 (years 1830–2109) so the product stays in int64; two versions collide
 * only if 2^21 versions are written with the same millisecond, which no write path does.
 *
 * Snapshots: SQLite has one writer, so a counter in `search_clock`, bumped inside each writing
 * statement, orders events as commits do; a snapshot is the counter's value and a version is
 * visible at S when added_in <= S < removed_in. PostgreSQL writers run concurrently and commit in
 * any order, so a counter would not do: versions carry the writer's transaction id (xid8) and a
 * snapshot is `pg_current_snapshot()`, tested with `pg_visible_in_snapshot` — exactly the
 * database's own notion of "committed before this point".
 *
 * Matching: SQLite FTS5 with the trigram tokenizer (case folded) on `title`; PostgreSQL pg_trgm, a
 * GIN index on lower(title). Both serve substrings of three characters or more; shorter queries
 * are answered by a scan (src/storage/repositories/search.ts).
 */

/** Removed versions live this long: a paging session shorter than this never skips or repeats. */
export const SEARCH_VERSION_RETENTION_MINUTES = 60;

// Migrations take Kysely<any>: they describe the schema as it was at their time, not as DB says now.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The two stores' index shares no DDL (see above): each has its own.
  const upOn: Record<DialectName, (db: Kysely<unknown>) => Promise<void>> = { sqlite: upSqlite, postgres: upPostgres };
  await upOn[dialectOf(db).name](db);
}

const SEARCHABLE_KINDS = `('page', 'data_source')`;

/** A data source whose content says `linked: true` is a linked (duplicated) view; search leaves it out. */
function sqliteSearchable(row: 'new' | 'old' | 'o'): string {
  return `(${row}.object = 'page' OR (${row}.object = 'data_source' AND json_extract(CASE WHEN json_valid(${row}.content) THEN ${row}.content END, '$.linked') IS NOT 1))`;
}

function sqliteSeq(edited: string, tiebreak: string): string {
  const ms = `coalesce(CAST(strftime('%s', ${edited}) AS INTEGER) * 1000 + CAST(substr(strftime('%f', ${edited}), 4, 3) AS INTEGER), 0)`;
  return `(-max(-4398046511103, min(4398046511103, ${ms})) * 2097152 + (${tiebreak}) % 2097152)`;
}

const SQLITE_NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE TABLE search_index (
      seq INTEGER PRIMARY KEY,
      object_id TEXT NOT NULL,
      workspace_id TEXT NOT NULL,
      object TEXT NOT NULL,
      title TEXT NOT NULL,
      in_trash INTEGER NOT NULL,
      added_in INTEGER NOT NULL,
      removed_in INTEGER,
      removed_time TEXT
    )`,
    `CREATE INDEX search_index_object ON search_index (object_id)`,
    `CREATE INDEX search_index_listing ON search_index (workspace_id, in_trash, seq)`,
    `CREATE INDEX search_index_removed ON search_index (removed_time) WHERE removed_time IS NOT NULL`,
    `CREATE TABLE search_clock (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL)`,
    `INSERT INTO search_clock (id, value) VALUES (1, 0)`,
    `CREATE VIRTUAL TABLE search_fts USING fts5(title, content='search_index', content_rowid='seq', tokenize='trigram')`,
    // A version's title never changes, so the full-text rows follow inserts and deletes only.
    `CREATE TRIGGER search_fts_add AFTER INSERT ON search_index BEGIN
      INSERT INTO search_fts (rowid, title) VALUES (new.seq, new.title);
    END`,
    `CREATE TRIGGER search_fts_drop AFTER DELETE ON search_index BEGIN
      INSERT INTO search_fts (search_fts, rowid, title) VALUES ('delete', old.seq, old.title);
    END`,
    `INSERT INTO search_index (seq, object_id, workspace_id, object, title, in_trash, added_in)
      SELECT ${sqliteSeq('o.last_edited_time', 'o.rowid')}, o.id, o.workspace_id, o.object, o.title, o.in_trash, 0
      FROM objects o WHERE o.object IN ${SEARCHABLE_KINDS} AND ${sqliteSearchable('o')}`,
    `CREATE TRIGGER search_index_on_insert AFTER INSERT ON objects
    WHEN new.object IN ${SEARCHABLE_KINDS}
    BEGIN
      UPDATE search_clock SET value = value + 1 WHERE id = 1;
      INSERT INTO search_index (seq, object_id, workspace_id, object, title, in_trash, added_in)
        SELECT ${sqliteSeq('new.last_edited_time', 'c.value')}, new.id, new.workspace_id, new.object, new.title, new.in_trash, c.value
        FROM search_clock c WHERE c.id = 1 AND ${sqliteSearchable('new')};
    END`,
    `CREATE TRIGGER search_index_on_update AFTER UPDATE ON objects
    WHEN (old.object IN ${SEARCHABLE_KINDS} OR new.object IN ${SEARCHABLE_KINDS})
      AND (old.title IS NOT new.title OR old.last_edited_time IS NOT new.last_edited_time OR old.object IS NOT new.object
        OR old.workspace_id IS NOT new.workspace_id OR ${sqliteSearchable('old')} IS NOT ${sqliteSearchable('new')})
    BEGIN
      UPDATE search_clock SET value = value + 1 WHERE id = 1;
      DELETE FROM search_index WHERE removed_time < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${SEARCH_VERSION_RETENTION_MINUTES} minutes');
      UPDATE search_index SET removed_in = (SELECT value FROM search_clock WHERE id = 1), removed_time = ${SQLITE_NOW}
        WHERE object_id = old.id AND removed_in IS NULL;
      INSERT INTO search_index (seq, object_id, workspace_id, object, title, in_trash, added_in)
        SELECT ${sqliteSeq('new.last_edited_time', 'c.value')}, new.id, new.workspace_id, new.object, new.title, new.in_trash, c.value
        FROM search_clock c WHERE c.id = 1 AND ${sqliteSearchable('new')};
    END`,
    // Trash is read as it is now, not as of the snapshot: only the current version follows it.
    `CREATE TRIGGER search_index_on_trash AFTER UPDATE OF in_trash ON objects
    WHEN old.in_trash IS NOT new.in_trash AND new.object IN ${SEARCHABLE_KINDS}
    BEGIN
      UPDATE search_index SET in_trash = new.in_trash WHERE object_id = new.id AND removed_in IS NULL;
    END`,
    `CREATE TRIGGER search_index_on_delete AFTER DELETE ON objects
    WHEN old.object IN ${SEARCHABLE_KINDS}
    BEGIN
      UPDATE search_clock SET value = value + 1 WHERE id = 1;
      UPDATE search_index SET removed_in = (SELECT value FROM search_clock WHERE id = 1), removed_time = ${SQLITE_NOW}
        WHERE object_id = old.id AND removed_in IS NULL;
    END`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE EXTENSION IF NOT EXISTS pg_trgm`,
    `CREATE SEQUENCE search_tiebreak`,
    `CREATE TABLE search_index (
      seq bigint PRIMARY KEY,
      object_id text NOT NULL,
      workspace_id text NOT NULL,
      object text NOT NULL,
      title text NOT NULL,
      in_trash integer NOT NULL,
      added_in xid8 NOT NULL,
      removed_in xid8,
      removed_time timestamptz
    )`,
    `CREATE INDEX search_index_object ON search_index (object_id)`,
    `CREATE INDEX search_index_listing ON search_index (workspace_id, in_trash, seq)`,
    `CREATE INDEX search_index_removed ON search_index (removed_time) WHERE removed_time IS NOT NULL`,
    `CREATE INDEX search_index_title_trgm ON search_index USING gin (lower(title) gin_trgm_ops)`,
    `CREATE FUNCTION folio_search_seq(edited text, tiebreak bigint) RETURNS bigint LANGUAGE sql STABLE AS $$
      SELECT -greatest(-4398046511103, least(4398046511103, coalesce(round(extract(epoch FROM edited::timestamptz) * 1000)::bigint, 0))) * 2097152
        + tiebreak % 2097152
    $$`,
    // Content is JSON written by the server; should it ever not parse, the source stays searchable.
    `CREATE FUNCTION folio_search_linked(content text) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
    BEGIN
      RETURN coalesce(content::jsonb -> 'linked' = 'true'::jsonb, false);
    EXCEPTION WHEN others THEN
      RETURN false;
    END
    $$`,
    `CREATE FUNCTION folio_search_searchable(kind text, content text) RETURNS boolean LANGUAGE sql STABLE AS $$
      SELECT kind = 'page' OR (kind = 'data_source' AND NOT folio_search_linked(content))
    $$`,
    `CREATE FUNCTION folio_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      was_searchable boolean := false;
      is_searchable boolean := false;
    BEGIN
      IF TG_OP <> 'INSERT' THEN was_searchable := folio_search_searchable(OLD.object, OLD.content); END IF;
      IF TG_OP <> 'DELETE' THEN is_searchable := folio_search_searchable(NEW.object, NEW.content); END IF;
      IF TG_OP = 'UPDATE' AND was_searchable = is_searchable AND OLD.title IS NOT DISTINCT FROM NEW.title
          AND OLD.last_edited_time IS NOT DISTINCT FROM NEW.last_edited_time AND OLD.workspace_id = NEW.workspace_id THEN
        IF OLD.in_trash IS DISTINCT FROM NEW.in_trash THEN
          UPDATE search_index SET in_trash = NEW.in_trash WHERE object_id = NEW.id AND removed_in IS NULL;
        END IF;
        RETURN NULL;
      END IF;
      IF TG_OP <> 'INSERT' THEN
        -- SKIP LOCKED: concurrent writers prune disjoint rows and never wait on each other.
        DELETE FROM search_index WHERE seq IN (
          SELECT seq FROM search_index WHERE removed_time < now() - interval '${SEARCH_VERSION_RETENTION_MINUTES} minutes'
          LIMIT 100 FOR UPDATE SKIP LOCKED);
        UPDATE search_index SET removed_in = pg_current_xact_id(), removed_time = now() WHERE object_id = OLD.id AND removed_in IS NULL;
      END IF;
      IF is_searchable THEN
        INSERT INTO search_index (seq, object_id, workspace_id, object, title, in_trash, added_in)
        VALUES (folio_search_seq(NEW.last_edited_time, nextval('search_tiebreak')), NEW.id, NEW.workspace_id, NEW.object, NEW.title, NEW.in_trash,
          pg_current_xact_id());
      END IF;
      RETURN NULL;
    END
    $$`,
    `INSERT INTO search_index (seq, object_id, workspace_id, object, title, in_trash, added_in)
      SELECT folio_search_seq(o.last_edited_time, nextval('search_tiebreak')), o.id, o.workspace_id, o.object, o.title, o.in_trash, pg_current_xact_id()
      FROM objects o WHERE folio_search_searchable(o.object, o.content)`,
    `CREATE TRIGGER search_index_on_insert AFTER INSERT ON objects FOR EACH ROW
      WHEN (NEW.object IN ${SEARCHABLE_KINDS}) EXECUTE FUNCTION folio_search_sync()`,
    `CREATE TRIGGER search_index_on_update AFTER UPDATE ON objects FOR EACH ROW
      WHEN ((OLD.object IN ${SEARCHABLE_KINDS} OR NEW.object IN ${SEARCHABLE_KINDS}) AND (OLD.title IS DISTINCT FROM NEW.title
        OR OLD.last_edited_time IS DISTINCT FROM NEW.last_edited_time OR OLD.in_trash IS DISTINCT FROM NEW.in_trash
        OR OLD.object IS DISTINCT FROM NEW.object OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id OR OLD.content IS DISTINCT FROM NEW.content))
      EXECUTE FUNCTION folio_search_sync()`,
    `CREATE TRIGGER search_index_on_delete AFTER DELETE ON objects FOR EACH ROW
      WHEN (OLD.object IN ${SEARCHABLE_KINDS}) EXECUTE FUNCTION folio_search_sync()`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
