import { useEffect, useRef } from 'preact/hooks';
import { admin, shareWithConsole, v1 } from '../api.ts';
import { href } from '../router.ts';
import { plainText } from '../richText.tsx';
import { ErrorNote, Section, useLoad, usePaged } from '../ui.tsx';
import { BlockList } from './Blocks.tsx';
import type { AdminList, Block, BlockChildren, MeetingNote } from '../types.ts';

const FINAL = new Set(['notes_ready', 'transcription_failed']);
/** How often an unfinished note's status is read again. */
const POLL_MS = 1500;

export function MeetingNotesList({ workspaceId }: { workspaceId: string }) {
  const notes = usePaged((cursor) => admin.get<AdminList<MeetingNote>>(`/workspaces/${workspaceId}/meeting_notes`, { start_cursor: cursor }), [workspaceId]);
  return (
    <>
      <ErrorNote error={notes.error} />
      {notes.items.length === 0 && !notes.error && <p class="muted">No meeting notes in this workspace.</p>}
      <ul class="list" aria-label="Meeting notes">
        {notes.items.map((n) => (
          <li key={n.id}>
            <a href={href('processing', workspaceId, n.id)}>{n.title || 'Untitled meeting'}</a> <span class="badge">{n.status}</span>
          </li>
        ))}
      </ul>
      {notes.hasMore && (
        <button type="button" class="link" onClick={notes.more}>
          More meeting notes…
        </button>
      )}
    </>
  );
}

/** `[02:03]` or `[1:02:03]` at the start of a transcript paragraph, in seconds. */
function startOf(text: string): number | null {
  const match = /^\[(?:(\d+):)?(\d{2}):(\d{2})\]/.exec(text);
  return match ? Number(match[1] ?? 0) * 3600 + Number(match[2]) * 60 + Number(match[3]) : null;
}

/** A note as it moves: its status read again until final, the recording to play, and its results. */
export function MeetingNoteView({ blockId }: { blockId: string }) {
  const note = useLoad(() => admin.get<MeetingNote>(`/meeting_notes/${blockId}`), [blockId]);
  const player = useRef<HTMLAudioElement & HTMLVideoElement>(null);
  const n = note.data;
  useEffect(() => {
    if (!n || FINAL.has(n.status)) return;
    const timer = setTimeout(note.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [n]);
  const shared = useLoad(async () => (n ? (await shareWithConsole(n.workspace_id, n.root_id), true) : false), [n?.root_id]);
  if (note.error) return <ErrorNote error={note.error} />;
  if (!n) return <p aria-busy="true">Loading…</p>;
  const client = v1(n.workspace_id);
  const seek = (seconds: number) => {
    const media = player.current;
    if (!media) return;
    media.currentTime = seconds;
    void media.play().catch(() => undefined);
  };
  const isVideo = n.recording?.content_type?.startsWith('video/');
  return (
    <article class="detail" aria-labelledby="note-title">
      <h1 id="note-title">{n.title || 'Untitled meeting'}</h1>
      <p>
        Status: <strong data-testid="note-status">{n.status}</strong>
        {!FINAL.has(n.status) && <span class="muted"> (updating)</span>}
      </p>
      {n.recording ? (
        isVideo ? (
          <video ref={player} src={n.recording.url} controls preload="metadata" aria-label={`Recording: ${n.recording.filename}`} class="player" />
        ) : (
          <audio ref={player} src={n.recording.url} controls preload="metadata" aria-label={`Recording: ${n.recording.filename}`} class="player" />
        )
      ) : (
        <p class="muted">The recording is no longer stored.</p>
      )}
      <ErrorNote error={shared.error} />
      {shared.data && (
        <>
          {n.children.summary_block_id && (
            <Section title="Summary" id="summary">
              <BlockList client={client} parentId={n.children.summary_block_id} />
            </Section>
          )}
          {n.children.notes_block_id && (
            <Section title="Notes" id="notes">
              <BlockList client={client} parentId={n.children.notes_block_id} />
            </Section>
          )}
          {n.children.transcript_block_id && (
            <Section title="Transcript" id="transcript">
              <Transcript client={client} blockId={n.children.transcript_block_id} onSeek={seek} />
            </Section>
          )}
        </>
      )}
    </article>
  );
}

/** The transcript's paragraphs, each time a button that seeks the player there. */
function Transcript({ client, blockId, onSeek }: { client: ReturnType<typeof v1>; blockId: string; onSeek: (seconds: number) => void }) {
  const paragraphs = useLoad(async () => {
    const top = await client.get<BlockChildren>(`/blocks/${blockId}/children`, { page_size: 100 });
    // The transcript block holds a toggle whose children are the timed paragraphs.
    const blocks = top.results as Block[];
    const toggle = blocks.find((b) => b.type === 'toggle' && b.has_children);
    return toggle ? ((await client.get<BlockChildren>(`/blocks/${toggle.id}/children`, { page_size: 100 })).results as Block[]) : blocks;
  }, [blockId]);
  if (paragraphs.error) return <ErrorNote error={paragraphs.error} />;
  return (
    <ol class="transcript">
      {(paragraphs.data ?? []).map((b) => {
        const text = b.type === 'paragraph' ? plainText(b.paragraph.rich_text) : '';
        const at = startOf(text);
        return (
          <li key={b.id}>
            {at !== null && (
              <button type="button" class="link time" onClick={() => onSeek(at)} aria-label={`Play from ${text.slice(1, text.indexOf(']'))}`}>
                {text.slice(0, text.indexOf(']') + 1)}
              </button>
            )}{' '}
            {at !== null ? text.slice(text.indexOf(']') + 1).trim() : text}
          </li>
        );
      })}
    </ol>
  );
}
