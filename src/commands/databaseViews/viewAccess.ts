import type { Caller, Capability } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { DatabaseViewRow } from '../../storage/schema.js';
import { findObjectForConnection } from '../../storage/repositories/grants.js';
import { findDatabaseView } from '../../storage/repositories/databaseViews.js';
import { ApiError, notFound } from '../../errors/registry.js';

/**
 * A view the caller may see: its database must be shared with the connection (FACTS.md §10.8 8.7:
 * no access to the parent database is a 404). Missing and unshared answer the same bytes.
 */
export async function loadVisibleView(db: Db, caller: Caller, id: string, rawId: string = id): Promise<DatabaseViewRow> {
  const row = await findDatabaseView(db, id);
  if (!row || row.workspace_id !== caller.workspaceId) throw notFound('view', rawId);
  const database = await findObjectForConnection(db, row.database_id, caller.connectionId);
  if (!database?.shared) throw notFound('view', rawId);
  return row;
}

/** FACTS.md §10.8 8.7 allows creating a view with any of several capabilities; the route can name only one. */
export function requireAnyCapability(caller: Caller, capabilities: readonly Capability[]): void {
  if (capabilities.some((c) => caller.capabilities.has(c))) return;
  throw new ApiError('restricted_resource', `API token does not have access to this resource: it lacks the ${capabilities.join(' or ')} capability.`);
}
