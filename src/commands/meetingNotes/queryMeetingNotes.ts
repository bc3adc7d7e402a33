import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { BlockView } from '../../domain/views.js';
import type { ObjectRow } from '../../storage/schema.js';
import type { QueryMeetingNotesInput } from '../../schemas/meetingNotes.js';
import type { CompileEnv } from '../../domain/query/compileEnv.js';
import { compileFilter } from '../../domain/query/compileFilter.js';
import { orderTerms } from '../../domain/query/orderTerms.js';
import { parseSorts } from '../../domain/query/parseSorts.js';
import { parseMeetingNotesFilter } from '../../domain/meetingNotes/meetingNotesFilter.js';
import { MEETING_NOTES_SCHEMA } from '../../domain/meetingNotes/meetingNoteValues.js';
import { meetingNotesSeenBy, selectPage } from '../../storage/query/selectPage.js';
import { aliasMaker } from '../../storage/query/sqlPieces.js';
import { loadBlockViews } from '../blocks/loadBlock.js';

/** The values of meeting notes belong to no data source; the compiler's target names this instead. */
const NO_DATA_SOURCE = 'meeting_notes';

/**
 * POST /v1/blocks/meeting_notes/query: the meeting notes the connection sees, filtered and sorted
 * by the query planner's compiler (the filter translated into its tree, the notes seen as pages of
 * MEETING_NOTES_SCHEMA), in one statement; `limit` of them and whether more matched. Without sorts,
 * in creation order, as a data source's pages are.
 */
export async function queryMeetingNotes(ctx: AppContext, caller: Caller, body: QueryMeetingNotesInput): Promise<{ items: BlockView[]; hasMore: boolean }> {
  const now = ctx.clock.now();
  const filter = body.filter === undefined ? null : parseMeetingNotesFilter(body.filter, now);
  // The schema checked each sort; here they become the planner's.
  const sorts = parseSorts(body.sort ?? [], MEETING_NOTES_SCHEMA);
  const limit = body.limit ?? 50;
  const db = ctx.store.db;
  const env: CompileEnv = { dialect: ctx.store.dialect, now, me: caller.userId, schemaOf: () => undefined, alias: aliasMaker() };
  const p = env.alias('p');
  const { terms, joins } = orderTerms(sorts, p, NO_DATA_SOURCE, env);
  const where = meetingNotesSeenBy(p, caller.workspaceId, caller.connectionId);
  if (filter) where.push(compileFilter(filter, p, NO_DATA_SOURCE, env));
  const { rows } = await selectPage(ctx.store.dialect, p, { terms, joins, where }, limit + 1, null, true).execute(db);
  const notes = rows.slice(0, limit) as unknown as ObjectRow[];
  return { items: await loadBlockViews(db, notes), hasMore: rows.length > limit };
}
