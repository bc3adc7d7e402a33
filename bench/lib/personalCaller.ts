import { LATEST_VERSION } from '../../src/versioning/versions.js';
import type { FolioServer } from './folio.js';

/**
 * A workspace with a person and a personal connection acting for them: the heaviest form of
 * `users/me` (token, bot, workspace and owner reads) and the one SDK users acting for a person hit.
 * Answers the headers its requests carry.
 */
export async function personalCaller(folio: Pick<FolioServer, 'admin'>): Promise<Record<string, string>> {
  const workspace = await folio.admin('POST', '/workspaces', { name: 'Bench workspace' });
  const person = await folio.admin('POST', `/workspaces/${workspace.id}/users`, { name: 'Ada Lovelace', email: 'ada@example.com' });
  const connection = await folio.admin('POST', `/workspaces/${workspace.id}/connections`, {
    name: 'Bench integration',
    kind: 'personal',
    capabilities: ['read_content', 'user_info_with_email'],
    user_id: person.id,
  });
  return { authorization: `Bearer ${connection.token}`, 'service-version': LATEST_VERSION };
}
