import type { Db } from '../../storage/db.js';
import type { MentionResolver } from '../richText.js';

/**
 * What normalising people and relation values must look up in the store. The command supplies it
 * (storage/repositories/pageValues.ts `valueLookups`), so normalisation never imports a repository.
 */
export interface ValueLookups {
  /** Which of `ids` are users of the workspace. */
  workspaceUserIds(ids: readonly string[]): Promise<Set<string>>;
  /** Which of `ids` are pages of the data source (in the trash or not). */
  pagesIn(dataSourceId: string, ids: readonly string[]): Promise<Set<string>>;
}

/** What normalising and writing request values needs from the request and the store. */
export interface ValueContext {
  db: Db;
  lookups: ValueLookups;
  workspaceId: string;
  actorId: string;
  resolver: MentionResolver;
  /** The request's time (the command's clock): a verification's default date, a hosted file's expiry. */
  now: Date;
  /** Set when a select or multi_select value created an option: the schema must be saved. */
  schemaChanged: boolean;
}
