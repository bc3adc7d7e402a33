import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createStore } from '../../src/storage/createStore.js';
import { migrationsHash } from './sqliteTemplate.js';

export interface OwnDatabase {
  url: string;
  drop(): Promise<void>;
}

function urlOf(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

let template: Promise<string> | null = null;

/**
 * A database holding only the migrated schema, made once per PostgreSQL server and set of
 * migrations, that own databases are copied from (CREATE DATABASE … TEMPLATE: a tenth of the
 * time of migrating a new one). Migrated under another name and renamed, so a copy never starts
 * from a half-migrated template.
 */
function migratedTemplate(base: string, admin: (statement: string) => Promise<pg.QueryResult>): Promise<string> {
  template ??= (async () => {
    const name = `folio_test_template_${migrationsHash()}`;
    const found = await admin(`SELECT 1 FROM pg_database WHERE datname = '${name}'`);
    if (found.rowCount) return name;
    const making = `folio_test_making_${randomUUID().replace(/-/g, '')}`;
    await admin(`CREATE DATABASE ${making}`);
    const store = await createStore({ databaseUrl: urlOf(base, making), dataDir: '.', callerCacheMs: 0 });
    await store.close();
    try {
      await admin(`ALTER DATABASE ${making} RENAME TO ${name}`);
    } catch {
      // Another test process made it first.
      await admin(`DROP DATABASE IF EXISTS ${making} WITH (FORCE)`);
    }
    return name;
  })();
  return template;
}

/**
 * A fresh PostgreSQL database beside the suite's, when the suite runs on PostgreSQL (DATABASE_URL),
 * else null (on SQLite every server has its own file already). For a test whose server acts on the
 * whole store (a reset, the upload sweeper), so it neither sees nor touches other files' data.
 */
export async function ownDatabase(): Promise<OwnDatabase | null> {
  const base = process.env.DATABASE_URL;
  if (!base) return null;
  const name = `folio_own_${randomUUID().replace(/-/g, '')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      return await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name} TEMPLATE ${await migratedTemplate(base, admin)}`);
  return { url: urlOf(base, name), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => undefined) };
}
