import type { Db } from '../storage/db.js';
import { findUsersByIds } from '../storage/repositories/users.js';
import { findObject } from '../storage/repositories/objects.js';
import type { MentionResolver } from './richText.js';
import { objectUrl } from '../ids/objectUrl.js';

/** A resolver scoped to one workspace: mentions of another workspace's objects resolve to nothing. */
export function createMentionResolver(db: Db, workspaceId: string, baseUrl: string, me: string | null): MentionResolver {
  return {
    me,
    userName: async (id) => {
      const [user] = await findUsersByIds(db, [id]);
      return user && user.workspace_id === workspaceId ? user.name : null;
    },
    objectTitle: async (id) => {
      const row = await findObject(db, id);
      return row && row.workspace_id === workspaceId ? row.title : null;
    },
    objectUrl: (id) => objectUrl(baseUrl, id),
  };
}
