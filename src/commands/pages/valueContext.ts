import type { Db } from '../../storage/db.js';
import type { Caller } from '../../auth/capabilities.js';
import type { AppContext } from '../../context.js';
import { createMentionResolver } from '../../domain/mentionResolver.js';
import type { ValueContext } from '../../domain/properties/valueContext.js';
import { valueLookups } from '../../storage/repositories/propertyValues.js';

export function valueContext(ctx: AppContext, db: Db, caller: Caller, now: Date): ValueContext {
  return {
    db,
    lookups: valueLookups(db, caller.workspaceId),
    workspaceId: caller.workspaceId,
    actorId: caller.botId,
    resolver: createMentionResolver(db, caller.workspaceId, ctx.config.publicUrl, caller.userId),
    now,
    schemaChanged: false,
  };
}
