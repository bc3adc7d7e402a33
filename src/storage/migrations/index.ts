import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './001_initial.js';

/** Listed statically so the same migrations run from source (tsx) and from the build. */
const MIGRATIONS: Record<string, Migration> = {
  '001_initial': initial,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
