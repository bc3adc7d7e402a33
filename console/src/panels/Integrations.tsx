import { useState } from 'preact/hooks';
import { admin } from '../api.ts';
import { go, href } from '../router.ts';
import { ErrorNote, useAction, useLoad, usePaged } from '../ui.tsx';
import type { AdminList, Integration, IssuedIntegrationObject } from '../types.ts';

const CAPABILITIES = ['read_content', 'update_content', 'insert_content', 'read_comments', 'insert_comments'] as const;
const USER_INFO = ['no_user_info', 'user_info_without_email', 'user_info_with_email'] as const;
/** One URI a line: what a person pastes from their app's settings. */
const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** `#/integrations[/<integration>]`: public integrations (server-wide) for the OAuth install flow. */
export function IntegrationsPanel({ route }: { route: string[] }) {
  const [integrationId] = route;
  const list = usePaged((cursor) => admin.get<AdminList<Integration>>('/integrations', { start_cursor: cursor }), []);
  // The secret is answered once (creation, rotation): it lives in this view only until it is left.
  const [issued, setIssued] = useState<IssuedIntegrationObject | null>(null);
  return (
    <div class="columns">
      <aside aria-label="Integrations">
        <h1>Integrations</h1>
        <ErrorNote error={list.error} />
        <ul class="list">
          {list.items.map((i) => (
            <li key={i.id}>
              <a href={href('integrations', i.id)} aria-current={i.id === integrationId ? 'page' : undefined}>
                {i.name}
              </a>
            </li>
          ))}
        </ul>
        {list.hasMore && (
          <button type="button" class="link" onClick={list.more}>
            More integrations…
          </button>
        )}
        <a href={href('integrations')}>New integration</a>
      </aside>
      <div class="detail">
        {issued && issued.id === (integrationId ?? issued.id) && (
          <div class="notice" role="status">
            <p>
              Client secret of <strong>{issued.name}</strong>, shown only this once (client id <code>{issued.client_id}</code>):
            </p>
            <code data-testid="client-secret">{issued.client_secret}</code>
          </div>
        )}
        {integrationId ? (
          <IntegrationDetail key={integrationId} integrationId={integrationId} onIssued={setIssued} onChanged={list.reload} />
        ) : (
          <CreateIntegration
            onCreated={(created) => {
              setIssued(created);
              list.reload();
              go('integrations', created.id);
            }}
          />
        )}
      </div>
    </div>
  );
}

function CreateIntegration({ onCreated }: { onCreated: (issued: IssuedIntegrationObject) => void }) {
  const [name, setName] = useState('');
  const [uris, setUris] = useState('');
  const [caps, setCaps] = useState<string[]>(['read_content', 'update_content', 'insert_content']);
  const [userInfo, setUserInfo] = useState<string>('user_info_with_email');
  const [error, run] = useAction();
  return (
    <>
      <h2>New integration</h2>
      <form
        class="grid-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () =>
            onCreated(await admin.post<IssuedIntegrationObject>('/integrations', { name, redirect_uris: lines(uris), capabilities: [...caps, userInfo] })),
          );
        }}
      >
        <label for="integration-name">Name</label>
        <input id="integration-name" value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={100} />
        <label for="integration-uris">Redirect URIs (one a line)</label>
        <textarea id="integration-uris" rows={3} value={uris} onInput={(e) => setUris(e.currentTarget.value)} required />
        <fieldset>
          <legend>Capabilities</legend>
          {CAPABILITIES.map((c) => (
            <label key={c} class="check">
              <input
                type="checkbox"
                checked={caps.includes(c)}
                onChange={(e) => setCaps(e.currentTarget.checked ? [...caps, c] : caps.filter((x) => x !== c))}
              />
              {c}
            </label>
          ))}
        </fieldset>
        <label for="integration-user-info">User information</label>
        <select id="integration-user-info" value={userInfo} onChange={(e) => setUserInfo(e.currentTarget.value)}>
          {USER_INFO.map((u) => (
            <option key={u}>{u}</option>
          ))}
        </select>
        <button type="submit">Create integration</button>
      </form>
      <ErrorNote error={error} />
    </>
  );
}

function IntegrationDetail({
  integrationId,
  onIssued,
  onChanged,
}: {
  integrationId: string;
  onIssued: (issued: IssuedIntegrationObject) => void;
  onChanged: () => void;
}) {
  const integration = useLoad(() => admin.get<Integration>(`/integrations/${integrationId}`), [integrationId]);
  const [uris, setUris] = useState<string | null>(null);
  const [error, run] = useAction();
  const i = integration.data;
  if (!i) return <ErrorNote error={integration.error} />;
  return (
    <>
      <h2>{i.name}</h2>
      <dl class="facts">
        <dt>Client id</dt>
        <dd>
          <code>{i.client_id}</code>
        </dd>
        <dt>Capabilities</dt>
        <dd>{i.capabilities.join(', ')}</dd>
        <dt>Created</dt>
        <dd>{i.created_time}</dd>
      </dl>
      <form
        class="grid-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await admin.patch(`/integrations/${integrationId}`, { redirect_uris: lines(uris ?? i.redirect_uris.join('\n')) });
            setUris(null);
            integration.reload();
          });
        }}
      >
        <label for="integration-edit-uris">Redirect URIs (one a line)</label>
        <textarea id="integration-edit-uris" rows={3} value={uris ?? i.redirect_uris.join('\n')} onInput={(e) => setUris(e.currentTarget.value)} required />
        <button type="submit">Save redirect URIs</button>
      </form>
      <div class="actions">
        <button
          type="button"
          onClick={() => {
            if (!window.confirm('Rotate the client secret? The old one stops working at once.')) return;
            void run(async () => onIssued(await admin.post<IssuedIntegrationObject>(`/integrations/${integrationId}/secret`)));
          }}
        >
          Rotate secret
        </button>
        <button
          type="button"
          class="danger"
          onClick={() => {
            if (!window.confirm(`Delete ${i.name}? Its installations stop working.`)) return;
            void run(async () => {
              await admin.delete(`/integrations/${integrationId}`);
              onChanged();
              go('integrations');
            });
          }}
        >
          Delete integration
        </button>
      </div>
      <ErrorNote error={error} />
    </>
  );
}
