import { useState } from 'preact/hooks';
import { admin } from '../api.ts';
import { ErrorNote, useAction, useEvery, useLoad } from '../ui.tsx';
import type { Fault } from '../types.ts';

const STATUSES = [409, 429, 500, 502, 503, 504, 529] as const;

export function FaultsPanel() {
  const faults = useLoad(() => admin.get<{ results: Fault[] }>('/faults'), []);
  // Hits move as requests arrive.
  useEvery(2000, faults.reload);
  const [form, setForm] = useState({ status: '503', path: '', method: '', connection_id: '', count: '', latency_ms: '' });
  const [error, run] = useAction();
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onInput: (e: { currentTarget: { value: string } }) => setForm({ ...form, [name]: e.currentTarget.value }),
  });
  return (
    <div class="detail">
      <h1>Faults</h1>
      <p class="muted">A fault makes matching /v1 requests fail or wait, to try a client's retries.</p>
      <form
        class="grid-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const body: Record<string, unknown> = {
              ...(form.status ? { status: Number(form.status) } : {}),
              ...(form.path ? { path: form.path } : {}),
              ...(form.method ? { method: form.method } : {}),
              ...(form.connection_id ? { connection_id: form.connection_id } : {}),
              ...(form.count ? { count: Number(form.count) } : {}),
              ...(form.latency_ms ? { latency_ms: Number(form.latency_ms) } : {}),
            };
            await admin.post('/faults', body);
            faults.reload();
          });
        }}
      >
        <label for="fault-status">Status</label>
        <select id="fault-status" value={form.status} onChange={(e) => setForm({ ...form, status: e.currentTarget.value })}>
          <option value="">none (latency only)</option>
          {STATUSES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
        <label for="fault-path">Path (prefix, e.g. /v1/users)</label>
        <input id="fault-path" {...field('path')} />
        <label for="fault-method">Method</label>
        <select id="fault-method" value={form.method} onChange={(e) => setForm({ ...form, method: e.currentTarget.value })}>
          <option value="">any</option>
          {['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        <label for="fault-connection">Connection id</label>
        <input id="fault-connection" {...field('connection_id')} />
        <label for="fault-count">Times (empty: until lifted)</label>
        <input id="fault-count" type="number" min={1} {...field('count')} />
        <label for="fault-latency">Latency (ms)</label>
        <input id="fault-latency" type="number" min={0} {...field('latency_ms')} />
        <button type="submit">Set fault</button>
      </form>
      <ErrorNote error={error ?? faults.error} />
      <table aria-label="Faults">
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Method</th>
            <th scope="col">Path</th>
            <th scope="col">Connection</th>
            <th scope="col">Hits</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {(faults.data?.results ?? []).map((f) => (
            <tr key={f.id}>
              <td>{f.status ?? '—'}</td>
              <td>{f.method ?? 'any'}</td>
              <td>{f.path ?? 'any'}</td>
              <td>{f.connection_id ?? 'any'}</td>
              <td>{f.hits}</td>
              <td>
                <button type="button" class="small" onClick={() => void run(async () => (await admin.delete(`/faults/${f.id}`), faults.reload()))}>
                  Lift
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {(faults.data?.results.length ?? 0) > 0 && (
        <button type="button" class="danger" onClick={() => void run(async () => (await admin.delete('/faults'), faults.reload()))}>
          Lift every fault
        </button>
      )}
    </div>
  );
}
