import { useState } from 'preact/hooks';
import { admin } from '../api.ts';
import { go, href } from '../router.ts';
import { ErrorNote, Section, useAction, useLoad, usePaged } from '../ui.tsx';
import type { AdminList, Connection, Webhook, WebhookDelivery, WebhookTest, Workspace } from '../types.ts';
import type { WebhookEventType } from '../../../src/schemas/webhooks.ts';

/**
 * The event types, written out here because importing the server's list would bundle TypeBox; the
 * two checks below make the compiler refuse a type the server does not know or one it forgot.
 */
const EVENT_TYPES = [
  'page.created',
  'page.content_updated',
  'page.properties_updated',
  'page.moved',
  'page.deleted',
  'page.undeleted',
  'page.locked',
  'page.unlocked',
  'page.transcription_block.transcript_deleted',
  'database.created',
  'database.content_updated',
  'database.schema_updated',
  'database.deleted',
  'database.moved',
  'database.undeleted',
  'data_source.created',
  'data_source.content_updated',
  'data_source.schema_updated',
  'data_source.deleted',
  'data_source.moved',
  'data_source.undeleted',
  'comment.created',
  'comment.updated',
  'comment.deleted',
  'file_upload.created',
  'file_upload.completed',
  'file_upload.expired',
  'file_upload.upload_failed',
  'view.created',
  'view.updated',
  'view.deleted',
] as const satisfies readonly WebhookEventType[];
const everyTypeListed: [Exclude<WebhookEventType, (typeof EVENT_TYPES)[number]>] extends [never] ? true : false = true;
void everyTypeListed;

/** `#/webhooks[/<subscription>]` */
export function WebhooksPanel({ route }: { route: string[] }) {
  const [webhookId] = route;
  const list = usePaged((cursor) => admin.get<AdminList<Webhook>>('/webhooks', { start_cursor: cursor }), []);
  return (
    <div class="columns">
      <aside aria-label="Webhook subscriptions">
        <h1>Webhooks</h1>
        <ErrorNote error={list.error} />
        <ul class="list">
          {list.items.map((w) => (
            <li key={w.id}>
              <a href={href('webhooks', w.id)} aria-current={w.id === webhookId ? 'page' : undefined}>
                {w.url}
              </a>{' '}
              <span class={`badge${w.status === 'active' ? ' live' : ''}`}>{w.status}</span>
            </li>
          ))}
        </ul>
        {list.hasMore && (
          <button type="button" class="link" onClick={list.more}>
            More subscriptions…
          </button>
        )}
        <a href={href('webhooks')}>New subscription</a>
      </aside>
      {webhookId ? <WebhookDetail key={webhookId} webhookId={webhookId} onChanged={list.reload} /> : <CreateWebhook onCreated={list.reload} />}
    </div>
  );
}

function CreateWebhook({ onCreated }: { onCreated: () => void }) {
  const workspaces = usePaged((cursor) => admin.get<AdminList<Workspace>>('/workspaces', { start_cursor: cursor }), []);
  const [workspaceId, setWorkspaceId] = useState('');
  const ws = workspaceId || workspaces.items[0]?.id || '';
  const connections = usePaged(
    (cursor) =>
      ws
        ? admin.get<AdminList<Connection>>(`/workspaces/${ws}/connections`, { start_cursor: cursor })
        : Promise.resolve({ object: 'list', results: [], next_cursor: null, has_more: false }),
    [ws],
  );
  const [connectionId, setConnectionId] = useState('');
  const conn = connections.items.some((c) => c.id === connectionId) ? connectionId : (connections.items[0]?.id ?? '');
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<string[]>([]);
  const [error, run] = useAction();
  return (
    <div class="detail">
      <h2>New subscription</h2>
      <p class="muted">Folio POSTs a verification token to the URL; paste it in the subscription to activate it.</p>
      <form
        class="grid-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const created = await admin.post<Webhook>('/webhooks', { connection_id: conn, url, ...(types.length ? { event_types: types } : {}) });
            onCreated();
            go('webhooks', created.id);
          });
        }}
      >
        <label for="webhook-workspace">Workspace</label>
        <select id="webhook-workspace" value={ws} onChange={(e) => setWorkspaceId(e.currentTarget.value)}>
          {workspaces.items.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
        <label for="webhook-connection">Connection</label>
        <select id="webhook-connection" value={conn} onChange={(e) => setConnectionId(e.currentTarget.value)} required>
          {connections.items.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name} ({c.kind})
            </option>
          ))}
        </select>
        <label for="webhook-url">URL</label>
        <input id="webhook-url" type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} required maxLength={2000} />
        <label for="webhook-types">Event types (none chosen: every type)</label>
        <select id="webhook-types" multiple size={8} onChange={(e) => setTypes(Array.from(e.currentTarget.selectedOptions, (o) => o.value))}>
          {EVENT_TYPES.map((t) => (
            <option key={t} selected={types.includes(t)}>
              {t}
            </option>
          ))}
        </select>
        <button type="submit" disabled={!conn}>
          Create subscription
        </button>
      </form>
      <ErrorNote error={error ?? workspaces.error ?? connections.error} />
    </div>
  );
}

function WebhookDetail({ webhookId, onChanged }: { webhookId: string; onChanged: () => void }) {
  const webhook = useLoad(() => admin.get<Webhook>(`/webhooks/${webhookId}`), [webhookId]);
  const deliveries = usePaged((cursor) => admin.get<AdminList<WebhookDelivery>>(`/webhooks/${webhookId}/deliveries`, { start_cursor: cursor }), [webhookId]);
  const [token, setToken] = useState('');
  const [testType, setTestType] = useState<string>('page.created');
  const [tested, setTested] = useState<WebhookTest | null>(null);
  const [error, run] = useAction();
  const w = webhook.data;
  if (!w) return <ErrorNote error={webhook.error} />;
  return (
    <div class="detail">
      <h2>{w.url}</h2>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <span class={`badge${w.status === 'active' ? ' live' : ''}`}>{w.status}</span>
        </dd>
        <dt>Workspace</dt>
        <dd>{w.workspace_id ? <a href={href('workspaces', w.workspace_id)}>{w.workspace_id}</a> : 'every workspace the integration is installed in'}</dd>
        <dt>{w.integration_id ? 'Integration' : 'Connection'}</dt>
        <dd>{w.integration_id ?? w.connection_id ?? '—'}</dd>
        <dt>Event types</dt>
        <dd>{w.event_types?.join(', ') ?? 'every type'}</dd>
        <dt>API version</dt>
        <dd>{w.api_version}</dd>
      </dl>
      {w.status === 'pending' && (
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              await admin.post(`/webhooks/${webhookId}/verify`, { verification_token: token });
              setToken('');
              webhook.reload();
              onChanged();
            });
          }}
        >
          <label for="webhook-token">Verification token</label>
          <input id="webhook-token" value={token} onInput={(e) => setToken(e.currentTarget.value)} required maxLength={200} />
          <button type="submit">Verify</button>
        </form>
      )}
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          setTested(null);
          void run(async () => {
            setTested(await admin.post<WebhookTest>(`/webhooks/${webhookId}/test`, { type: testType }));
            deliveries.reload();
          });
        }}
      >
        <label for="webhook-test-type">Test event type</label>
        <select id="webhook-test-type" value={testType} onChange={(e) => setTestType(e.currentTarget.value)}>
          {EVENT_TYPES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
        <button type="submit">Send test event</button>
      </form>
      {tested && (
        <p class="notice prose" role="status" data-testid="test-result">
          {tested.delivered ? 'Delivered' : 'Not delivered'}: the receiver answered {tested.response_code ?? 'nothing'} in {tested.latency_ms} ms
          {tested.error ? ` (${tested.error})` : ''}.
        </p>
      )}
      <ErrorNote error={error} />
      <Section title="Deliveries" id="deliveries">
        <button type="button" class="small" onClick={deliveries.reload}>
          Refresh
        </button>
        <div class="table-scroll">
          <table aria-label="Deliveries">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Attempt</th>
                <th scope="col">Code</th>
                <th scope="col">Latency</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.items.map((d) => (
                <tr key={d.id} data-status={d.status}>
                  <td>{d.created_time}</td>
                  <td>{d.type}</td>
                  <td>{d.status}</td>
                  <td>{d.attempt}</td>
                  <td>{d.response_code ?? '—'}</td>
                  <td>{d.latency_ms === null ? '—' : `${d.latency_ms} ms`}</td>
                  <td>{d.error ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {deliveries.items.length === 0 && !deliveries.error && <p class="muted">No deliveries yet.</p>}
        {deliveries.hasMore && (
          <button type="button" class="link" onClick={deliveries.more}>
            More deliveries…
          </button>
        )}
        <ErrorNote error={deliveries.error} />
      </Section>
      <button
        type="button"
        class="danger"
        onClick={() => {
          if (!window.confirm('Delete this subscription? Folio stops sending it events.')) return;
          void run(async () => {
            await admin.delete(`/webhooks/${webhookId}`);
            onChanged();
            go('webhooks');
          });
        }}
      >
        Delete subscription
      </button>
    </div>
  );
}
