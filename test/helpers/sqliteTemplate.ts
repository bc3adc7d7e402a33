import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStore } from '../../src/storage/createStore.js';
import { REPO_ROOT } from '../platform/childServer.js';

const MIGRATIONS = path.join(REPO_ROOT, 'src', 'storage', 'migrations');

/** Names the migrations' sources, so an edited or added migration makes a new template. */
export function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const name of fs.readdirSync(MIGRATIONS).sort()) {
    hash.update(name);
    hash.update(fs.readFileSync(path.join(MIGRATIONS, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

let template: Promise<string> | null = null;

/**
 * A SQLite file holding only the migrated schema, made once per machine and set of migrations and
 * copied into each test server's fresh data dir: migrating a new file costs most of a second of
 * fsyncs on a busy machine, and the suite starts well over a hundred servers. Written aside and
 * renamed into place, so a file that runs at the same time never copies half a template.
 */
export function migratedSqliteTemplate(): Promise<string> {
  template ??= (async () => {
    const file = path.join(os.tmpdir(), `folio-test-template-${migrationsHash()}.sqlite`);
    if (fs.existsSync(file)) return file;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-template-'));
    const store = await createStore({ databaseUrl: null, dataDir: dir, poolSize: 1, callerCacheMs: 0 });
    await store.close();
    fs.renameSync(path.join(dir, 'folio.sqlite'), file);
    fs.rmSync(dir, { recursive: true, force: true });
    return file;
  })();
  return template;
}
