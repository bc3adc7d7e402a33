import type { FieldPath } from '../errors/validationFailure.js';
import type { ApiVersion } from './versions.js';
import type { OpenApiDocument } from './openapiDocument.js';

/** What a request converter may rewrite: the parsed inputs, before HEAD validation runs. */
export interface VersionedRequest {
  /** Route key, e.g. "PATCH /v1/pages/:page_id". */
  route: string;
  body: unknown;
  query: Record<string, unknown>;
  params: Record<string, string>;
}

/**
 * What older shapes of a response show that its newest body does not carry. The route hands it
 * beside the body (olderFacts.ts), so the body is exactly what the newest version sends; only the
 * change modules read it. Each fact is about the response's top-level object.
 */
export interface OlderVersionFacts {
  /** A page under a block: the page it sits in (its `parent` before 2022-06-28). */
  enclosingPageId?: string | null;
  /** A database: its first data source's properties and its authors, at HEAD (shown before 2025-09-03). */
  databaseSchema?: { properties: Record<string, unknown>; created_by: unknown; last_edited_by: unknown };
  /** Append block children: the block appended to, at HEAD (the answer before 2021-08-16). */
  appendedTo?: unknown;
}

export interface VersionedResponse {
  route: string;
  body: unknown;
  facts?: OlderVersionFacts;
  /** Walks a HEAD body back through the changes newer than the one called (for facts given at HEAD). */
  downgradeNewer?(body: unknown): unknown;
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
   * Maps a body path of the upgraded (newer) request, as a validation failure names it, back to the
   * field the caller wrote, e.g. `["position", "after_block", "id"]` → `["after"]`. Undefined keeps it.
   */
  callerPath?(path: FieldPath, route: string): FieldPath | undefined;
  /**
   * Routes this version removed (e.g. "POST /v1/databases/:database_id/query"): they answer a
   * caller at this version or later as an unknown route does. Their handlers serve older callers
   * and see HEAD-shaped requests like any other.
   */
  removedRoutes?: readonly string[];
  /**
   * Path prefixes of routes this version added (e.g. "/v1/data_sources"): a caller at an older
   * version gets what an unknown route answers, and older OpenAPI documents leave them out.
   */
  addedRoutes?: readonly string[];
  /**
   * The schema side of downgradeResponse: rewrites this version's OpenAPI document (a copy, paths
   * already limited to the routes of the version before) into the previous version's, where the
   * shapes it describes differ. Called newest change first, as downgradeResponse is.
   */
  downgradeDocument?(document: OpenApiDocument): void;
}
