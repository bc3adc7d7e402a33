import type { CallerRows } from '../storage/callerLookup.js';

export const CONTENT_CAPABILITIES = ['read_content', 'update_content', 'insert_content', 'read_comments', 'insert_comments'] as const;
export type Capability = (typeof CONTENT_CAPABILITIES)[number];

export const USER_INFO_LEVELS = ['no_user_info', 'user_info_without_email', 'user_info_with_email'] as const;
export type UserInfoLevel = (typeof USER_INFO_LEVELS)[number];

export const CONNECTION_KINDS = ['internal', 'public', 'personal'] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

/** What a request acts as, resolved from its bearer token. */
export interface Caller {
  /** The rows read with the token (bot, workspace, owner): `users/me` needs no further query. */
  rows?: CallerRows;
  connectionId: string;
  connectionName: string;
  workspaceId: string;
  kind: ConnectionKind;
  capabilities: ReadonlySet<Capability>;
  userInfo: UserInfoLevel;
  /** The person `me` resolves to; null for internal connections. */
  userId: string | null;
  botId: string;
}
