import { sql, type Kysely } from 'kysely';
import { dialectOf, type DialectName } from '../dialect.js';
import { CASED_BEYOND_ASCII_GLOB } from '../titleFolding.js';

/**
 * `search_scope`: every version in the search index once per ancestor of its object (itself
 * included), keyed (ancestor_id, seq). It is the join of `object_ancestors` and `search_index`
 * kept as a table, so "what a connection can see, in sort order" is one range of the key per
 * grant instead of one index lookup per reachable object: a connection shared with a subtree of
 * a few thousand pages in a workspace of a million searched 5k objects one by one (45 ms on
 * SQLite, docs/benchmarks.md); it now reads a few thousand adjacent keys. The title is copied in
 * (a version's title never changes) so a query is tested without leaving the range; on SQLite with
 * `unsure`, set when the title holds a cased letter beyond ASCII, which LIKE cannot fold (such
 * titles are decided in JavaScript, src/storage/titleFolding.ts).
 *
 * Both sides of the join change only by insert and delete (the updated columns of search_index,
 * in_trash and removed_*, are not copied), so each side's triggers add or remove their new row
 * joined with the other side as it is, and the table stays exactly the join.
 *
 * PostgreSQL runs writers concurrently: an edit adding a version of X and a move changing X's
 * ancestors could each miss the other's uncommitted row. The ancestor side first locks X's
 * `objects` row FOR SHARE, which waits for an edit of X in flight (it holds the row's update
 * lock) and makes that edit wait for the move; either way the later statement, taking a fresh
 * snapshot (READ COMMITTED), sees the earlier one's rows.
 */

// Migrations take Kysely<any>: they describe the schema as it was at their time, not as DB says now.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The two stores' tables differ in types, key and triggers (see above): each has its own DDL.
  const statements: Record<DialectName, string[]> = { sqlite, postgres };
  for (const statement of statements[dialectOf(db).name]) await sql.raw(statement).execute(db);
}

/** A SQL string literal; the pattern holds no quote, but a literal is only ever built one way. */
const UNSURE = `'${CASED_BEYOND_ASCII_GLOB.replace(/'/g, "''")}'`;

const sqlite = [
  `CREATE TABLE search_scope (
    ancestor_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    title TEXT NOT NULL,
    unsure INTEGER NOT NULL,
    PRIMARY KEY (ancestor_id, seq)
  ) WITHOUT ROWID`,
  `INSERT INTO search_scope (ancestor_id, seq, title, unsure)
    SELECT a.ancestor_id, s.seq, s.title, s.title GLOB ${UNSURE} FROM search_index s JOIN object_ancestors a ON a.descendant_id = s.object_id`,
  `CREATE TRIGGER search_scope_add_version AFTER INSERT ON search_index BEGIN
    INSERT OR IGNORE INTO search_scope (ancestor_id, seq, title, unsure)
      SELECT a.ancestor_id, new.seq, new.title, new.title GLOB ${UNSURE} FROM object_ancestors a WHERE a.descendant_id = new.object_id;
  END`,
  `CREATE TRIGGER search_scope_drop_version AFTER DELETE ON search_index BEGIN
    DELETE FROM search_scope WHERE seq = old.seq
      AND ancestor_id IN (SELECT ancestor_id FROM object_ancestors WHERE descendant_id = old.object_id);
  END`,
  `CREATE TRIGGER search_scope_add_ancestor AFTER INSERT ON object_ancestors BEGIN
    INSERT OR IGNORE INTO search_scope (ancestor_id, seq, title, unsure)
      SELECT new.ancestor_id, s.seq, s.title, s.title GLOB ${UNSURE} FROM search_index s WHERE s.object_id = new.descendant_id;
  END`,
  `CREATE TRIGGER search_scope_drop_ancestor AFTER DELETE ON object_ancestors BEGIN
    DELETE FROM search_scope WHERE ancestor_id = old.ancestor_id
      AND seq IN (SELECT seq FROM search_index WHERE object_id = old.descendant_id);
  END`,
];

const postgres = [
  `CREATE TABLE search_scope (
    ancestor_id text NOT NULL,
    seq bigint NOT NULL,
    title text NOT NULL,
    -- The title in the key's index too: a query is tested by an index-only scan of the range.
    PRIMARY KEY (ancestor_id, seq) INCLUDE (title)
  )`,
  `INSERT INTO search_scope (ancestor_id, seq, title)
    SELECT a.ancestor_id, s.seq, s.title FROM search_index s JOIN object_ancestors a ON a.descendant_id = s.object_id`,
  `CREATE FUNCTION folio_search_scope_version() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      INSERT INTO search_scope (ancestor_id, seq, title)
        SELECT a.ancestor_id, NEW.seq, NEW.title FROM object_ancestors a WHERE a.descendant_id = NEW.object_id
        ON CONFLICT DO NOTHING;
    ELSE
      DELETE FROM search_scope WHERE seq = OLD.seq
        AND ancestor_id IN (SELECT ancestor_id FROM object_ancestors WHERE descendant_id = OLD.object_id);
    END IF;
    RETURN NULL;
  END
  $$`,
  `CREATE FUNCTION folio_search_scope_ancestor() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    link object_ancestors%ROWTYPE;
  BEGIN
    IF TG_OP = 'INSERT' THEN link := NEW; ELSE link := OLD; END IF;
    PERFORM 1 FROM objects WHERE id = link.descendant_id FOR SHARE;
    IF TG_OP = 'INSERT' THEN
      INSERT INTO search_scope (ancestor_id, seq, title)
        SELECT link.ancestor_id, s.seq, s.title FROM search_index s WHERE s.object_id = link.descendant_id
        ON CONFLICT DO NOTHING;
    ELSE
      DELETE FROM search_scope WHERE ancestor_id = link.ancestor_id
        AND seq IN (SELECT seq FROM search_index WHERE object_id = link.descendant_id);
    END IF;
    RETURN NULL;
  END
  $$`,
  `CREATE TRIGGER search_scope_version AFTER INSERT OR DELETE ON search_index FOR EACH ROW EXECUTE FUNCTION folio_search_scope_version()`,
  `CREATE TRIGGER search_scope_ancestor AFTER INSERT OR DELETE ON object_ancestors FOR EACH ROW EXECUTE FUNCTION folio_search_scope_ancestor()`,
];
