import { useState } from 'preact/hooks';
import { admin, forgetConsoleConnections } from '../api.ts';
import { href } from '../router.ts';
import { ErrorNote, Section, useAction, usePaged } from '../ui.tsx';
import type { AdminList, Imported, ResetDone, Workspace } from '../types.ts';

/** The server reads YAML by content type (src/http/yamlBody.ts); the file's extension says which it is, as `folio import` does. */
const contentTypeOf = (name: string) => (/\.ya?ml$/i.test(name) ? 'application/yaml' : 'application/json');

/** `#/fixtures`: import a fixture file, export a workspace as one, reset the store. */
export function FixturesPanel() {
  const workspaces = usePaged((cursor) => admin.get<AdminList<Workspace>>('/workspaces', { start_cursor: cursor }), []);
  const [file, setFile] = useState<File | null>(null);
  const [imported, setImported] = useState<Imported | null>(null);
  const [importError, runImport] = useAction();
  const [exportId, setExportId] = useState('');
  const [exportError, runExport] = useAction();
  const [resetTo, setResetTo] = useState<'empty' | 'seed'>('seed');
  const [resetDone, setResetDone] = useState<ResetDone | null>(null);
  const [resetError, runReset] = useAction();
  // A chosen workspace that a reset removed falls back to the first one left.
  const chosen = workspaces.items.some((w) => w.id === exportId) ? exportId : (workspaces.items[0]?.id ?? '');
  return (
    <div class="detail">
      <h1>Fixtures</h1>
      <p class="muted">A fixture is one file describing whole workspaces (docs/fixtures.md): import one, export a workspace as one, or reset the store.</p>
      <Section title="Import a fixture" id="import">
        <form
          class="grid-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!file) return;
            setImported(null);
            void runImport(async () => {
              setImported(await admin.postText<Imported>('/import', await file.text(), contentTypeOf(file.name)));
              workspaces.reload();
            });
          }}
        >
          <label for="fixture-file">Fixture file (JSON, or YAML by its .yaml/.yml name)</label>
          <input
            id="fixture-file"
            type="file"
            accept=".json,.yaml,.yml,application/json,application/yaml"
            required
            onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
          />
          <button type="submit">Import</button>
        </form>
        <ErrorNote error={importError} />
        {imported && (
          <div class="notice prose" role="status" data-testid="import-result">
            <p>
              Imported in {Math.round(imported.duration_ms)} ms:{' '}
              {Object.entries(imported.counts)
                .filter(([, n]) => n > 0)
                .map(([k, n]) => `${n} ${k}`)
                .join(', ') || 'nothing'}
              .
            </p>
            <ul>
              {imported.workspace_ids.map((id) => (
                <li key={id}>
                  <a href={href('workspaces', id)}>{workspaces.items.find((w) => w.id === id)?.name ?? id}</a>
                </li>
              ))}
            </ul>
          </div>
        )}
      </Section>
      <Section title="Export a workspace" id="export">
        <form
          class="grid-form"
          onSubmit={(e) => {
            e.preventDefault();
            void runExport(async () => {
              const fixture = await admin.get<unknown>(`/workspaces/${chosen}/export`);
              const url = URL.createObjectURL(new Blob([JSON.stringify(fixture, null, 2)], { type: 'application/json' }));
              const link = document.createElement('a');
              link.href = url;
              link.download = `workspace-${chosen}.json`;
              link.click();
              // The download has started from the link: the URL can go once the click is handled.
              setTimeout(() => URL.revokeObjectURL(url), 1000);
            });
          }}
        >
          <label for="export-workspace">Workspace</label>
          <select id="export-workspace" value={chosen} onChange={(e) => setExportId(e.currentTarget.value)}>
            {workspaces.items.length === 0 && <option value="">No workspaces</option>}
            {workspaces.items.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
          <button type="submit" disabled={!chosen}>
            Export (JSON)
          </button>
        </form>
        {workspaces.hasMore && (
          <button type="button" class="link" onClick={workspaces.more}>
            More workspaces…
          </button>
        )}
        <ErrorNote error={exportError ?? workspaces.error} />
      </Section>
      <Section title="Reset the store" id="reset">
        <form
          class="grid-form"
          onSubmit={(e) => {
            e.preventDefault();
            const what =
              resetTo === 'empty'
                ? 'Empty the store? Every workspace, user, connection, page and file is deleted.'
                : 'Reset the store to its seed? Everything written since the start is lost.';
            if (!window.confirm(what)) return;
            setResetDone(null);
            void runReset(async () => {
              setResetDone(await admin.post<ResetDone>('/reset', { to: resetTo }));
              setImported(null);
              forgetConsoleConnections();
              workspaces.reload();
            });
          }}
        >
          <label for="reset-to">Reset to</label>
          <select id="reset-to" value={resetTo} onChange={(e) => setResetTo(e.currentTarget.value as 'empty' | 'seed')}>
            <option value="seed">the seed (FOLIO_SEED)</option>
            <option value="empty">empty</option>
          </select>
          <button type="submit" class="danger">
            Reset…
          </button>
        </form>
        <ErrorNote error={resetError} />
        {resetDone && (
          <p class="notice prose" role="status" data-testid="reset-result">
            {resetDone.to === 'empty' ? 'The store is empty: every workspace, user, connection, page and file was deleted.' : 'The store is back to its seed.'}{' '}
            The admin token still works (it is configuration, not stored data); connection tokens issued before the reset no longer do. Took{' '}
            {Math.round(resetDone.duration_ms)} ms.
          </p>
        )}
      </Section>
    </div>
  );
}
