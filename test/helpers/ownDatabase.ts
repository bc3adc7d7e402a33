import { randomUUID } from 'node:crypto';
import pg from 'pg';

export interface OwnDatabase {
  url: string;
  drop(): Promise<void>;
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
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
