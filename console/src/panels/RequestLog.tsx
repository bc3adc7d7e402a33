import { useEffect, useState } from 'preact/hooks';
import { admin, adminToken, consoleConnectionIds } from '../api.ts';
import { ErrorNote } from '../ui.tsx';
import type { LoggedRequest } from '../types.ts';

/** How many requests the view keeps: the newest, as the server's ring does. */
const KEEP = 500;

/**
 * Server-sent events read with fetch, since EventSource cannot send the admin token in a header
 * (and a token in the URL would land in logs). Calls `onEvent` with each `data:` payload.
 */
async function readEvents(url: string, signal: AbortSignal, onEvent: (data: string) => void): Promise<void> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${adminToken.get() ?? ''}`, accept: 'text/event-stream' }, signal });
  if (!response.ok || !response.body) throw new Error(`The live log did not open (HTTP ${response.status}).`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data) onEvent(data);
    }
  }
}

export function RequestLogPanel() {
  const [entries, setEntries] = useState<LoggedRequest[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState(false);
  const [hideConsole, setHideConsole] = useState(true);
  const [opened, setOpened] = useState<LoggedRequest | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    admin
      .get<{ results: LoggedRequest[] }>('/requests', { limit: 200 })
      .then((list) => setEntries((now) => [...now, ...list.results.filter((r) => !now.some((n) => n.request_id === r.request_id))].slice(0, KEEP)))
      .catch((e: Error) => setError(e.message));
    setLive(true);
    readEvents('/admin/v1/requests/stream', abort.signal, (data) => {
      const entry = JSON.parse(data) as LoggedRequest;
      setEntries((now) => [entry, ...now].slice(0, KEEP));
    })
      .catch((e: Error) => {
        if (!abort.signal.aborted) setError(e.message);
      })
      .finally(() => setLive(false));
    return () => abort.abort();
  }, []);
  const own = consoleConnectionIds();
  const shown = hideConsole ? entries.filter((e) => !e.connection_id || !own.has(e.connection_id)) : entries;
  return (
    <div class="detail wide">
      <h1>
        Request log <span class={`badge ${live ? 'live' : ''}`}>{live ? 'live' : 'not live'}</span>
      </h1>
      <label class="check">
        <input type="checkbox" checked={hideConsole} onChange={(e) => setHideConsole(e.currentTarget.checked)} />
        Hide the console's own requests
      </label>
      <ErrorNote error={error} />
      <div class="columns">
        <div class="table-scroll">
          <table aria-label="Requests">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Method</th>
                <th scope="col">Path</th>
                <th scope="col">Connection</th>
                <th scope="col">Status</th>
                <th scope="col">ms</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((e) => (
                <tr key={e.request_id} class={e.status >= 400 ? 'failed' : ''} data-status={e.status}>
                  <td>{e.time.slice(11, 23)}</td>
                  <td>{e.method}</td>
                  <td>
                    <button type="button" class="link" onClick={() => setOpened(e)}>
                      {e.path}
                    </button>
                  </td>
                  <td>
                    <code>{e.connection_id?.slice(0, 8) ?? '—'}</code>
                  </td>
                  <td>{e.status}</td>
                  <td>{e.duration_ms}</td>
                  <td>{e.error_code ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {opened && <RequestDetail entry={opened} onClose={() => setOpened(null)} />}
      </div>
    </div>
  );
}

/** A kept body, indented when it is whole JSON (a cut one is shown as kept). */
function pretty(body: string | null): string {
  if (body === null) return '—';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function RequestDetail({ entry, onClose }: { entry: LoggedRequest; onClose: () => void }) {
  const { object: _object, request_body, response_body, ...fields } = entry;
  return (
    <aside class="request-detail" aria-label="Request details">
      <h2>
        {entry.method} {entry.path}
      </h2>
      <dl>
        {Object.entries(fields).map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v === null ? '—' : String(v)}</dd>
          </div>
        ))}
      </dl>
      <h3>Body</h3>
      <pre data-testid="request-body">{pretty(request_body)}</pre>
      <h3>Answer</h3>
      <pre data-testid="response-body">{pretty(response_body)}</pre>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </aside>
  );
}
