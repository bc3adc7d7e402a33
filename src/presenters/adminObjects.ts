import type { ConnectionRow } from '../storage/schema.js';
import type { WorkspaceRow } from '../storage/schema.js';

/** Admin-plane objects: allowlists of columns; a connection's token hash is never shown. */
export function presentWorkspace(row: WorkspaceRow) {
  return { object: 'workspace' as const, id: row.id, name: row.name };
}

export function presentConnection(row: ConnectionRow) {
  const capabilities = JSON.parse(row.capabilities) as string[];
  return {
    object: 'connection' as const,
    id: row.id,
    name: row.name,
    kind: row.kind,
    capabilities: [...capabilities, row.user_info],
    workspace_id: row.workspace_id,
    user_id: row.user_id,
    bot_id: row.bot_id,
  };
}

export function presentGrant(row: { connection_id: string; object_id: string; created_time: string }) {
  return { object: 'grant' as const, connection_id: row.connection_id, object_id: row.object_id, created_time: row.created_time };
}
