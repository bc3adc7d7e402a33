import { admin, shareWithConsole, v1 } from '../api.ts';
import { go } from '../router.ts';
import { ErrorNote, ObjectTree, TrashToggle, useAction, useLoad, usePaged, WorkspacePicker } from '../ui.tsx';
import { plainText } from '../richText.tsx';
import { BlockList } from './Blocks.tsx';
import { DatabaseView } from './Database.tsx';
import type { AdminList, Page, Workspace } from '../types.ts';

/** `#/content/<workspace>/<page|database>/<id>/<top-level ancestor>` */
export function ContentPanel({ route }: { route: string[] }) {
  const [workspaceId, kind, objectId, rootId] = route;
  const workspaces = usePaged((cursor) => admin.get<AdminList<Workspace>>('/workspaces', { start_cursor: cursor }), []);
  const chosen = workspaceId ?? workspaces.items[0]?.id;
  return (
    <div class="columns">
      <aside aria-label="Pages">
        <WorkspacePicker id="content-workspace" panel="content" chosen={chosen} workspaces={workspaces} />
        <ErrorNote error={workspaces.error} />
        {chosen && (
          <ObjectTree
            key={chosen}
            workspaceId={chosen}
            label="Pages and databases"
            onOpen={(object, path) => go('content', chosen, object.kind, object.id, path[0].id)}
          />
        )}
      </aside>
      {chosen && objectId && rootId ? (
        <ObjectView key={objectId} workspaceId={chosen} kind={kind} objectId={objectId} rootId={rootId} />
      ) : (
        <p class="muted">Open a page or a database from the tree.</p>
      )}
    </div>
  );
}

function ObjectView({ workspaceId, kind, objectId, rootId }: { workspaceId: string; kind: string; objectId: string; rootId: string }) {
  // Reads go through /v1 as the console's own connection, which needs the top-level ancestor shared.
  const ready = useLoad(() => shareWithConsole(workspaceId, rootId).then(() => true), [workspaceId, rootId]);
  if (ready.error) return <ErrorNote error={ready.error} />;
  if (!ready.data) return <p aria-busy="true">Loading…</p>;
  const client = v1(workspaceId);
  return kind === 'database' ? <DatabaseView client={client} databaseId={objectId} /> : <PageView client={client} pageId={objectId} />;
}

const pageTitle = (page: Page) => {
  const title = Object.values(page.properties).find((p) => p.type === 'title');
  return title && title.type === 'title' ? plainText(title.title) : '';
};

function PageView({ client, pageId }: { client: ReturnType<typeof v1>; pageId: string }) {
  const page = useLoad(() => client.get<Page>(`/pages/${pageId}`), [pageId]);
  const [error, run] = useAction();
  if (page.error) return <ErrorNote error={page.error} />;
  const p = page.data;
  if (!p) return <p aria-busy="true">Loading…</p>;
  const setTrash = (in_trash: boolean) => run(async () => (await client.patch(`/pages/${pageId}`, { in_trash }), page.reload()));
  return (
    <article class="detail page" aria-labelledby="page-title">
      <header class="page-head">
        {p.icon?.type === 'emoji' && <span aria-hidden="true">{p.icon.emoji}</span>}
        <h1 id="page-title">{pageTitle(p) || 'Untitled'}</h1>
        <TrashToggle inTrash={p.in_trash} setTrash={setTrash} />
      </header>
      <p class="muted">
        <code>{p.id}</code> · edited {p.last_edited_time}
      </p>
      <ErrorNote error={error} />
      <div class="blocks">
        <BlockList client={client} parentId={pageId} />
      </div>
    </article>
  );
}
