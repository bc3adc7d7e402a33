/**
 * The shapes the console reads, taken from the server's own schemas (type-only imports: nothing of
 * the server is bundled) and, for `/v1` objects, from the official SDK's response types, so a
 * change to an answer shows up here as a type error rather than a blank panel.
 */
import type { Static } from 'typebox';
import type {
  AdminConnection,
  AdminContentObject,
  AdminGrant,
  AdminJob,
  AdminMeetingNote,
  AdminProcessing,
  AdminWorkspace,
  IssuedToken,
  OperatorUser,
} from '../../src/schemas/admin.ts';
import type { AdminFault, AdminLoggedRequest, CreateFaultBody } from '../../src/schemas/instruments.ts';
import type { AdminIntegration, AdminReset, IssuedIntegration } from '../../src/schemas/admin.ts';
import type { ImportResult } from '../../src/schemas/fixtures.ts';
import type { AdminWebhook, AdminWebhookDelivery, AdminWebhookTest } from '../../src/schemas/webhooks.ts';

export type Workspace = Static<typeof AdminWorkspace>;
export type Connection = Static<typeof AdminConnection>;
export type Issued = Static<typeof IssuedToken>;
export type OperatorUserObject = Static<typeof OperatorUser>;
export type Grant = Static<typeof AdminGrant>;
export type ContentObject = Static<typeof AdminContentObject>;
export type Job = Static<typeof AdminJob>;
export type MeetingNote = Static<typeof AdminMeetingNote>;
export type Processing = Static<typeof AdminProcessing>;
export type Fault = Static<typeof AdminFault>;
export type FaultInput = Static<typeof CreateFaultBody>;
export type LoggedRequest = Static<typeof AdminLoggedRequest>;
export type Imported = Static<typeof ImportResult>;
export type ResetDone = Static<typeof AdminReset>;
export type Webhook = Static<typeof AdminWebhook>;
export type WebhookDelivery = Static<typeof AdminWebhookDelivery>;
export type WebhookTest = Static<typeof AdminWebhookTest>;
export type Integration = Static<typeof AdminIntegration>;
export type IssuedIntegrationObject = Static<typeof IssuedIntegration>;

export interface AdminList<T> {
  object: 'list';
  results: T[];
  next_cursor: string | null;
  has_more: boolean;
}

export type {
  BlockObjectResponse as Block,
  DataSourceObjectResponse as DataSource,
  DatabaseObjectResponse as Database,
  PageObjectResponse as Page,
  QueryDataSourceResponse as QueryResult,
  RichTextItemResponse as RichText,
  ListBlockChildrenResponse as BlockChildren,
} from '@notionhq/client';
