import { Fixture, ExportParams, ImportResult, type FixtureInput } from '../schemas/fixtures.js';
import { importFixture, type ImportView } from '../commands/fixtures/importFixture.js';
import { exportWorkspace } from '../commands/fixtures/exportWorkspace.js';
import { adminOperation, type AnyAdminOperation } from './adminOperation.js';

/** A fixture of a few thousand pages with their files inline is some megabytes; the plane's 500 KB is for single objects. */
export const FIXTURE_BODY_LIMIT = 256 * 1024 * 1024;

export function presentImport(view: ImportView) {
  return { object: 'import' as const, workspace_ids: view.workspaceIds, counts: view.counts, duration_ms: view.durationMs };
}

/**
 * Fixtures (issue 26 item 2; docs/fixtures.md). `folio import FILE` and `folio export` run the same
 * commands from the command line (src/cli/fixtureCli.ts): they read and write files and draw a
 * progress bar, which a declared option cannot, so these two have no `folio admin` subcommand.
 */
export const FIXTURE_OPERATIONS: readonly AnyAdminOperation[] = [
  adminOperation({
    method: 'POST',
    path: '/import',
    body: Fixture,
    response: ImportResult,
    bodyLimit: FIXTURE_BODY_LIMIT,
    // Over HTTP no file is trusted: bytes come inline (base64), never by a path on the server.
    run: (ctx, { body }) => importFixture(ctx, body as FixtureInput, { baseDir: null }),
    present: presentImport,
  }),
  adminOperation({
    method: 'GET',
    path: '/workspaces/:workspace_id/export',
    params: ExportParams,
    response: Fixture,
    run: (ctx, { params }) => exportWorkspace(ctx, params.workspace_id),
    present: (fixture: FixtureInput) => fixture,
  }),
];
