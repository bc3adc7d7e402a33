import type { AppContext } from '../../context.js';
import { newId } from '../../ids/ids.js';
import { invalidFieldBare } from '../../errors/validationFailure.js';
import { ApiError } from '../../errors/registry.js';
import { generateToken, hashToken } from '../../auth/tokens.js';
import type { IntegrationRow } from '../../storage/schema.js';
import {
  deleteIntegration,
  findIntegration,
  insertIntegration,
  listIntegrationConnections,
  listIntegrations,
  updateIntegration,
} from '../../storage/repositories/integrations.js';
import { revokeConnection } from '../../storage/repositories/connections.js';
import { deleteIntegrationSubscriptions } from '../../storage/repositories/webhooks.js';
import type { AdminListOptions, CreateIntegrationInput, UpdateIntegrationInput } from '../../schemas/admin.js';
import { splitCapabilities } from './connections.js';
import { adminListPage } from './adminListPage.js';

export function integrationNotFound(id: string): ApiError {
  return new ApiError('object_not_found', `Could not find integration with ID: ${id}.`);
}

/** A client secret: 256 bits, stored only as its SHA-256, like connection tokens. */
function newClientSecret(): { secret: string; hash: string } {
  const secret = generateToken().replace(/^folio_/, 'folio_secret_');
  return { secret, hash: hashToken(secret) };
}

/** RFC 6749 §3.1.2: a redirection endpoint is absolute and has no fragment. */
function checkRedirectUris(uris: readonly string[]): string[] {
  uris.forEach((uri, index) => {
    let url: URL | null = null;
    try {
      url = new URL(uri);
    } catch {
      url = null;
    }
    if (!url || uri.includes('#')) throw invalidFieldBare(['redirect_uris', index], 'should be an absolute URI without a fragment', uri);
  });
  return [...new Set(uris)];
}

/** The stored capability list: content capabilities then the one user-information level, as connections present them. */
function capabilityList(list: readonly string[]): string {
  const { content, userInfo } = splitCapabilities(list);
  return JSON.stringify([...content, userInfo]);
}

export async function createIntegration(ctx: AppContext, input: CreateIntegrationInput) {
  const { secret, hash } = newClientSecret();
  const row: IntegrationRow = {
    id: newId(),
    client_id: newId(),
    secret_hash: hash,
    name: input.name,
    redirect_uris: JSON.stringify(checkRedirectUris(input.redirect_uris)),
    capabilities: capabilityList(input.capabilities),
    webhook_url: input.webhook_url ?? null,
    created_time: ctx.clock.now().toISOString(),
  };
  await insertIntegration(ctx.store.db, row);
  // The secret leaves the server here once and never again.
  return { row, secret };
}

export async function listIntegrationsPage(ctx: AppContext, options: AdminListOptions) {
  return adminListPage(
    'admin-integrations',
    options,
    (after, limit) => listIntegrations(ctx.store.db, after, limit),
    (row) => row.id,
  );
}

export async function getIntegration(ctx: AppContext, id: string): Promise<IntegrationRow> {
  const row = await findIntegration(ctx.store.db, id);
  if (!row) throw integrationNotFound(id);
  return row;
}

/**
 * Renames an integration or replaces its redirect URIs, capabilities or webhook URL. Connections
 * already installed keep the capabilities they were granted with: a person approved those.
 */
export async function changeIntegration(ctx: AppContext, id: string, input: UpdateIntegrationInput): Promise<IntegrationRow> {
  const changes = {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.redirect_uris === undefined ? {} : { redirect_uris: JSON.stringify(checkRedirectUris(input.redirect_uris)) }),
    ...(input.capabilities === undefined ? {} : { capabilities: capabilityList(input.capabilities) }),
    ...(input.webhook_url === undefined ? {} : { webhook_url: input.webhook_url }),
  };
  if (!(await updateIntegration(ctx.store.db, id, changes))) throw integrationNotFound(id);
  return getIntegration(ctx, id);
}

/** A new client secret; the old one fails from the next token request. */
export async function rotateIntegrationSecret(ctx: AppContext, id: string) {
  const { secret, hash } = newClientSecret();
  if (!(await updateIntegration(ctx.store.db, id, { secret_hash: hash }))) throw integrationNotFound(id);
  return { row: await getIntegration(ctx, id), secret };
}

/** Deletes an integration: every connection installed from it is revoked with it, at once, and its webhook subscriptions go. */
export async function removeIntegration(ctx: AppContext, id: string): Promise<void> {
  const at = ctx.clock.now().toISOString();
  await ctx.store.transaction(async (trx) => {
    for (const connection of await listIntegrationConnections(trx, id)) await revokeConnection(trx, connection.id, at);
    await deleteIntegrationSubscriptions(trx, id);
    if (!(await deleteIntegration(trx, id))) throw integrationNotFound(id);
  });
}
