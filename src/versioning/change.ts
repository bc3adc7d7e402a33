import type { ApiVersion } from './versions.js';

/** What a request converter may rewrite: the parsed inputs, before HEAD validation runs. */
export interface VersionedRequest {
  /** Route key, e.g. "PATCH /v1/pages/:page_id". */
  route: string;
  body: unknown;
  query: Record<string, unknown>;
  params: Record<string, string>;
}

export interface VersionedResponse {
  route: string;
  body: unknown;
}

/**
 * One backwards-incompatible change, introduced at `version`. `upgradeRequest` turns a request
 * written for the version before into this version's shape; `downgradeResponse` turns this
 * version's response into the previous version's. Handlers and presenters only ever see HEAD.
 */
export interface VersionChange {
  version: ApiVersion;
  description: string;
  upgradeRequest?(request: VersionedRequest): void;
  downgradeResponse?(response: VersionedResponse): unknown;
  /**
   * Maps a path of the upgraded (newer) request, as named in a validation message, back to the
   * field the caller wrote, e.g. `body.position.after_block.id` → `body.after`. Undefined keeps it.
   */
  callerPath?(path: string, route: string): string | undefined;
}
