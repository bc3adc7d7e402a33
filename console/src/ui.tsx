import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { admin } from './api.ts';
import { go } from './router.ts';
import type { AdminList, ContentObject, Workspace } from './types.ts';

/** Loads once per change of `deps`; `reload` runs it again after a write. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | undefined; error: string | null; reload: () => void } {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    load().then(
      (value) => live && setData(value),
      (failure: Error) => live && setError(failure.message),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { data, error, reload: useCallback(() => setTick((t) => t + 1), []) };
}

/** Calls `tick` every `ms` while the view is shown: counters that move on the server (fault hits, the queue). */
export function useEvery(ms: number, tick: () => void): void {
  useEffect(() => {
    const timer = setInterval(tick, ms);
    return () => clearInterval(timer);
  }, [ms, tick]);
}

/** A list read a page at a time: "Load more" fetches the next page with the server's cursor, so nothing reads a whole table. */
export function usePaged<T>(load: (cursor: string | null) => Promise<AdminList<T>>, deps: unknown[]) {
  const [items, setItems] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    let live = true;
    setItems([]);
    setLoaded(false);
    load(null).then(
      (page) => {
        if (!live) return;
        setItems(page.results);
        setCursor(page.next_cursor);
        setLoaded(true);
      },
      (failure: Error) => live && setError(failure.message),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const more = async () => {
    if (!cursor) return;
    const page = await load(cursor);
    setItems((old) => [...old, ...page.results]);
    setCursor(page.next_cursor);
  };
  return { items, loaded, hasMore: cursor !== null, more, error, reload: () => setTick((t) => t + 1) };
}

export function ErrorNote({ error }: { error: string | null | undefined }) {
  return error ? (
    <p role="alert" class="error">
      {error}
    </p>
  ) : null;
}

/** Runs an action, showing its failure beside the control that started it. */
export function useAction(): [string | null, (action: () => Promise<unknown>) => Promise<void>] {
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return [error, run];
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  return (
    <section aria-labelledby={id ? `${id}-title` : undefined}>
      <h2 id={id ? `${id}-title` : undefined}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * A workspace's pages and databases under `parentId`, one level at a time: a branch is read when it
 * is opened, a page of 100 at a time, so a tree of a million pages opens as fast as one of ten.
 * `roots` replaces the top level (a connection's shares).
 */
export function ObjectTree({
  workspaceId,
  roots,
  onOpen,
  label,
}: {
  workspaceId: string;
  roots?: ContentObject[];
  onOpen?: (object: ContentObject, path: ContentObject[]) => void;
  label: string;
}) {
  return (
    // Nested lists of disclosure buttons rather than an ARIA tree: every control is a native button
    // or link, so Tab, Enter and Space work without a custom keyboard model to get wrong.
    <ul aria-label={label} class="tree">
      {roots ? (
        roots.map((o) => <TreeItem key={o.id} workspaceId={workspaceId} object={o} path={[]} onOpen={onOpen} />)
      ) : (
        <TreeLevel workspaceId={workspaceId} parentId={null} path={[]} onOpen={onOpen} />
      )}
    </ul>
  );
}

function TreeLevel({
  workspaceId,
  parentId,
  path,
  onOpen,
}: {
  workspaceId: string;
  parentId: string | null;
  path: ContentObject[];
  onOpen?: (object: ContentObject, path: ContentObject[]) => void;
}) {
  const list = usePaged(
    (cursor) => admin.get<AdminList<ContentObject>>(`/workspaces/${workspaceId}/objects`, { parent_id: parentId, start_cursor: cursor }),
    [workspaceId, parentId],
  );
  return (
    <>
      {list.items.map((o) => (
        <TreeItem key={o.id} workspaceId={workspaceId} object={o} path={path} onOpen={onOpen} />
      ))}
      {list.error && (
        <li>
          <ErrorNote error={list.error} />
        </li>
      )}
      {list.hasMore && (
        <li>
          <button type="button" class="link" onClick={list.more}>
            More…
          </button>
        </li>
      )}
      {!list.error && !list.hasMore && list.items.length === 0 && parentId === null && <li class="muted">Nothing here yet.</li>}
    </>
  );
}

function TreeItem({
  workspaceId,
  object,
  path,
  onOpen,
}: {
  workspaceId: string;
  object: ContentObject;
  path: ContentObject[];
  onOpen?: (object: ContentObject, path: ContentObject[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const here = [...path, object];
  const title = object.title || 'Untitled';
  return (
    <li>
      <span class="tree-row">
        <button type="button" class="twisty" aria-expanded={open} aria-label={`Expand ${title}`} onClick={() => setOpen(!open)}>
          {open ? '▾' : '▸'}
        </button>
        <span class="kind" aria-hidden="true">
          {object.kind === 'database' ? '▦' : '▤'}
        </span>
        {onOpen ? (
          <button type="button" class={`link${object.in_trash ? ' trashed' : ''}`} onClick={() => onOpen(object, here)}>
            {title}
          </button>
        ) : (
          <span class={object.in_trash ? 'trashed' : ''}>{title}</span>
        )}
        {object.in_trash && <span class="badge">in trash</span>}
      </span>
      {open && (
        <ul aria-label={`Inside ${title}`}>
          <TreeLevel workspaceId={workspaceId} parentId={object.id} path={here} onOpen={onOpen} />
        </ul>
      )}
    </li>
  );
}

/** The workspace chooser at the head of a panel's side column; choosing one goes to `#/<panel>/<id>`. */
export function WorkspacePicker({
  id,
  panel,
  chosen,
  workspaces,
}: {
  id: string;
  panel: string;
  chosen: string | undefined;
  workspaces: ReturnType<typeof usePaged<Workspace>>;
}) {
  return (
    <>
      <label for={id}>Workspace</label>
      <select id={id} value={chosen ?? ''} onChange={(e) => go(panel, e.currentTarget.value)}>
        {workspaces.items.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
      {workspaces.hasMore && (
        <button type="button" class="link" onClick={workspaces.more}>
          More workspaces…
        </button>
      )}
    </>
  );
}

/** "in trash" with Restore, or Move to trash: a page's and a database's head. */
export function TrashToggle({ inTrash, setTrash }: { inTrash: boolean; setTrash: (inTrash: boolean) => Promise<unknown> }) {
  return inTrash ? (
    <>
      <span class="badge">in trash</span>
      <button type="button" onClick={() => void setTrash(false)}>
        Restore
      </button>
    </>
  ) : (
    <button type="button" class="danger" onClick={() => void setTrash(true)}>
      Move to trash
    </button>
  );
}
