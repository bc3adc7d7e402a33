import { useState } from 'preact/hooks';
import { admin } from '../api.ts';
import { ErrorNote, useAction, useEvery, useLoad, usePaged, WorkspacePicker } from '../ui.tsx';
import { MeetingNoteView, MeetingNotesList } from './MeetingNotes.tsx';
import type { AdminList, Job, Processing, Workspace } from '../types.ts';

/** `#/processing[/<workspace>[/<meeting notes block>]]`: a workspace's notes, one note, and the processing queue. */
export function ProcessingPanel({ route }: { route: string[] }) {
  const [workspaceId, blockId] = route;
  const workspaces = usePaged((cursor) => admin.get<AdminList<Workspace>>('/workspaces', { start_cursor: cursor }), []);
  const chosen = workspaceId ?? workspaces.items[0]?.id;
  return (
    <div class="columns">
      <aside aria-label="Meeting notes">
        <WorkspacePicker id="notes-workspace" panel="processing" chosen={chosen} workspaces={workspaces} />
        {chosen && <MeetingNotesList key={chosen} workspaceId={chosen} />}
      </aside>
      {blockId ? <MeetingNoteView key={blockId} blockId={blockId} /> : <Queue />}
    </div>
  );
}

/** Meeting notes' background processing: the engines, the queue (pause, resume) and its jobs with their attempts. */
function Queue() {
  const processing = useLoad(() => admin.get<Processing>('/processing'), []);
  // The queue's counts move as workers run.
  useEvery(3000, processing.reload);
  const [state, setState] = useState('');
  const jobs = usePaged((cursor) => admin.get<AdminList<Job>>('/jobs', { state, start_cursor: cursor, page_size: 50 }), [state]);
  const [error, run] = useAction();
  const p = processing.data;
  return (
    <div class="detail">
      <h1>Meeting notes processing</h1>
      <ErrorNote error={error ?? processing.error} />
      {p && (
        <>
          <p>
            Queue: <strong>{p.paused ? 'paused' : 'running'}</strong> · {p.jobs.queued} queued · {p.jobs.running} running · {p.jobs.done} done · {p.jobs.failed}{' '}
            failed
          </p>
          <p class="muted">
            Transcriber {p.transcriber.engine}: {p.transcriber.ready ? 'ready' : p.transcriber.reason} · Summarizer {p.summarizer.engine}:{' '}
            {p.summarizer.ready ? 'ready' : p.summarizer.reason}
          </p>
          <button
            type="button"
            onClick={() =>
              void run(async () => {
                await admin.post(p.paused ? '/processing/resume' : '/processing/pause');
                processing.reload();
              })
            }
          >
            {p.paused ? 'Resume processing' : 'Pause processing'}
          </button>
        </>
      )}
      <h2>Jobs</h2>
      <label for="job-state">State</label>{' '}
      <select id="job-state" value={state} onChange={(e) => setState(e.currentTarget.value)}>
        <option value="">any</option>
        {['queued', 'running', 'done', 'failed'].map((s) => (
          <option key={s}>{s}</option>
        ))}
      </select>
      <ErrorNote error={jobs.error} />
      <table aria-label="Jobs">
        <thead>
          <tr>
            <th scope="col">Kind</th>
            <th scope="col">State</th>
            <th scope="col">Attempts</th>
            <th scope="col">Subject</th>
            <th scope="col">Created</th>
            <th scope="col">Last error</th>
          </tr>
        </thead>
        <tbody>
          {jobs.items.map((j) => (
            <tr key={j.id}>
              <td>{j.kind}</td>
              <td>{j.state}</td>
              <td>
                {j.attempts}/{j.max_attempts}
              </td>
              <td>
                <code>{j.subject_id.slice(0, 8)}</code>
              </td>
              <td>{j.created_time}</td>
              <td>{j.last_error ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {jobs.hasMore && (
        <button type="button" class="link" onClick={jobs.more}>
          More jobs…
        </button>
      )}
    </div>
  );
}
