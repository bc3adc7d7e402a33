import fs from 'node:fs';
import path from 'node:path';
import { generateToken } from './auth/tokens.js';

/**
 * FOLIO_ADMIN_TOKEN wins; otherwise a token is generated on first start and kept in the data dir
 * (mode 0600) so restarts keep it. `created` tells the caller to print it, once.
 */
export function resolveAdminToken(configured: string | null, dataDir: string): { token: string; created: boolean; file: string | null } {
  if (configured) return { token: configured, created: false, file: null };
  const file = path.join(dataDir, 'admin-token');
  try {
    const token = fs.readFileSync(file, 'utf8').trim();
    if (token) return { token, created: false, file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const token = generateToken();
  try {
    fs.writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another instance on the same data dir wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { token: fs.readFileSync(file, 'utf8').trim(), created: false, file };
    throw error;
  }
  return { token, created: true, file };
}
