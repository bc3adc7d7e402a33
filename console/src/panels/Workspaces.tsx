import { useState } from 'preact/hooks';
// The README's example fixture, bundled (4 KB): what a new user's empty console offers to load.
import exampleFixture from '../../../examples/workspace.json?raw';
import { admin, CONSOLE_CONNECTION_NAME } from '../api.ts';
import { go, href } from '../router.ts';
import { ErrorNote, ObjectTree, Section, useAction, useLoad, usePaged } from '../ui.tsx';
import type { AdminList, ContentObject, Connection, Grant, Imported, Issued, OperatorUserObject, Workspace } from '../types.ts';

/** `#/workspaces[/<workspace>[/connections/<connection>]]` */
export function WorkspacesPanel({ route }: { route: string[] }) {
  const [workspaceId, , connectionId] = route;
  const list = usePaged((cursor) => admin.get<AdminList<Workspace>>('/workspaces', { start_cursor: cursor }), []);
  const [name, setName] = useState('');
  const [error, run] = useAction();
  return (
    <div class="columns">
      <aside aria-label="Workspaces">
        <h1>Workspaces</h1>
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              const created = await admin.post<Workspace>('/workspaces', { name });
              setName('');
              list.reload();
              go('workspaces', created.id);
            });
          }}
        >
          <label for="new-workspace">New workspace</label>
          <input id="new-workspace" value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={200} />
          <button type="submit">Create</button>
        </form>
        <ErrorNote error={error ?? list.error} />
        <ul class="list">
          {list.items.map((w) => (
            <li key={w.id}>
              <a href={href('workspaces', w.id)} aria-current={w.id === workspaceId ? 'page' : undefined}>
                {w.name}
              </a>
            </li>
          ))}
        </ul>
        {list.hasMore && (
          <button type="button" class="link" onClick={list.more}>
            More workspaces…
          </button>
        )}
      </aside>
      {workspaceId ? (
        connectionId ? (
          <ConnectionDetail key={connectionId} workspaceId={workspaceId} connectionId={connectionId} />
        ) : (
          <WorkspaceDetail key={workspaceId} workspaceId={workspaceId} onChanged={list.reload} />
        )
      ) : list.loaded && list.items.length === 0 ? (
        <FirstRun onLoaded={list.reload} />
      ) : (
        <p class="muted">Choose a workspace, or create one.</p>
      )}
    </div>
  );
}

/** An empty store, as `npm start` leaves it the first time: something to look at, one click away. */
function FirstRun({ onLoaded }: { onLoaded: () => void }) {
  const [error, run] = useAction();
  return (
    <section class="detail" aria-labelledby="first-run">
      <h1 id="first-run">No workspaces yet</h1>
      <p>
        Create one on the left, or load the example workspace (<code>examples/workspace.json</code>): a page with blocks, a database of tasks with rows, a
        comment, and a connection whose token, <code>secret_folio_example</code>, works as written.
      </p>
      <button
        type="button"
        onClick={() =>
          void run(async () => {
            const imported = await admin.postText<Imported>('/import', exampleFixture, 'application/json');
            onLoaded();
            go('content', imported.workspace_ids[0]);
          })
        }
      >
        Load the example workspace
      </button>
      <ErrorNote error={error} />
    </section>
  );
}

function WorkspaceDetail({ workspaceId, onChanged }: { workspaceId: string; onChanged: () => void }) {
  const workspace = useLoad(() => admin.get<Workspace>(`/workspaces/${workspaceId}`), [workspaceId]);
  const [rename, setRename] = useState('');
  const [error, run] = useAction();
  if (workspace.error) return <ErrorNote error={workspace.error} />;
  const w = workspace.data;
  if (!w) return <p aria-busy="true">Loading…</p>;
  return (
    <div class="detail">
      <h1>{w.name}</h1>
      <p class="muted">
        <code>{w.id}</code> · <a href={href('content', w.id)}>Open its pages</a>
      </p>
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await admin.patch(`/workspaces/${workspaceId}`, { name: rename });
            setRename('');
            workspace.reload();
            onChanged();
          });
        }}
      >
        <label for="rename-workspace">Rename to</label>
        <input id="rename-workspace" value={rename} onInput={(e) => setRename(e.currentTarget.value)} required maxLength={200} />
        <button type="submit">Rename</button>
        <button
          type="button"
          class="danger"
          onClick={() =>
            confirm(`Delete workspace "${w.name}" and everything in it?`) &&
            void run(async () => {
              await admin.delete(`/workspaces/${workspaceId}`);
              onChanged();
              go('workspaces');
            })
          }
        >
          Delete workspace
        </button>
      </form>
      <ErrorNote error={error} />
      <Users workspaceId={workspaceId} />
      <Connections workspaceId={workspaceId} />
    </div>
  );
}

function Users({ workspaceId }: { workspaceId: string }) {
  const users = usePaged((cursor) => admin.get<AdminList<OperatorUserObject>>(`/workspaces/${workspaceId}/users`, { start_cursor: cursor }), [workspaceId]);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [error, run] = useAction();
  return (
    <Section title="Users" id="users">
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await admin.post(`/workspaces/${workspaceId}/users`, { name, email });
            setName('');
            setEmail('');
            users.reload();
          });
        }}
      >
        <label for="user-name">Name</label>
        <input id="user-name" value={name} onInput={(e) => setName(e.currentTarget.value)} required />
        <label for="user-email">E-mail</label>
        <input id="user-email" type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} required />
        <button type="submit">Add user</button>
      </form>
      <ErrorNote error={error ?? users.error} />
      <table>
        <caption class="sr-only">Users</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">E-mail</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {users.items.map((u) => (
            <tr key={u.id}>
              <td>{u.name}</td>
              <td>{u.type}</td>
              <td>{u.type === 'person' && 'email' in u.person ? u.person.email : ''}</td>
              <td>
                {u.type === 'person' && (
                  <button
                    type="button"
                    class="danger small"
                    aria-label={`Delete user ${u.name ?? u.id}`}
                    onClick={() => void run(async () => (await admin.delete(`/workspaces/${workspaceId}/users/${u.id}`), users.reload()))}
                  >
                    Delete
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {users.hasMore && (
        <button type="button" class="link" onClick={users.more}>
          More users…
        </button>
      )}
    </Section>
  );
}

const CONTENT_CAPABILITIES = ['read_content', 'update_content', 'insert_content', 'read_comments', 'insert_comments'] as const;
const USER_INFO = ['no_user_info', 'user_info_without_email', 'user_info_with_email'] as const;

function Connections({ workspaceId }: { workspaceId: string }) {
  const connections = usePaged((cursor) => admin.get<AdminList<Connection>>(`/workspaces/${workspaceId}/connections`, { start_cursor: cursor }), [workspaceId]);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Connection['kind']>('internal');
  const [userId, setUserId] = useState('');
  // Personal and public connections act for a person; the first 100 people are offered (the id can be typed for others).
  const people = useLoad(() => admin.get<AdminList<OperatorUserObject>>(`/workspaces/${workspaceId}/users`, { page_size: 100 }), [workspaceId, kind]);
  const persons = (people.data?.results ?? []).filter((u) => u.type === 'person');
  const [issued, setIssued] = useState<Issued | null>(null);
  const [error, run] = useAction();
  return (
    <Section title="Connections" id="connections">
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            setIssued(
              await admin.post<Issued>(`/workspaces/${workspaceId}/connections`, {
                name,
                kind,
                capabilities: ['read_content', 'update_content', 'insert_content', 'user_info_without_email'],
                ...(kind === 'internal' ? {} : { user_id: userId }),
              }),
            );
            setName('');
            connections.reload();
          });
        }}
      >
        <label for="connection-name">New connection</label>
        <input id="connection-name" value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={200} />
        <label for="connection-kind">Kind</label>
        <select id="connection-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as Connection['kind'])}>
          <option value="internal">internal (a bot of the workspace)</option>
          <option value="personal">personal (acts for a person)</option>
          <option value="public">public (installed by a person)</option>
        </select>
        {kind !== 'internal' && (
          <>
            <label for="connection-person">Person</label>
            <select id="connection-person" value={userId} onChange={(e) => setUserId(e.currentTarget.value)} required>
              <option value="">Choose a person…</option>
              {persons.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.name ?? u.id}
                </option>
              ))}
            </select>
          </>
        )}
        <button type="submit">Create</button>
      </form>
      {issued && <TokenShown issued={issued} />}
      <ErrorNote error={error ?? connections.error} />
      <ul class="list">
        {connections.items.map((c) => (
          <li key={c.id}>
            <a href={href('workspaces', workspaceId, 'connections', c.id)}>{c.name}</a> <span class="muted">{c.kind}</span>
            {c.name === CONSOLE_CONNECTION_NAME && <span class="badge">the console's own</span>}
          </li>
        ))}
      </ul>
      {connections.hasMore && (
        <button type="button" class="link" onClick={connections.more}>
          More connections…
        </button>
      )}
    </Section>
  );
}

function TokenShown({ issued }: { issued: Issued }) {
  return (
    <div class="notice" role="status">
      Token for <strong>{issued.name}</strong> (shown once): <code data-testid="issued-token">{issued.token}</code>
    </div>
  );
}

function ConnectionDetail({ workspaceId, connectionId }: { workspaceId: string; connectionId: string }) {
  const connection = useLoad(() => admin.get<Connection>(`/connections/${connectionId}`), [connectionId]);
  const [issued, setIssued] = useState<Issued | null>(null);
  const [error, run] = useAction();
  const [treeTick, setTreeTick] = useState(0);
  if (connection.error) return <ErrorNote error={connection.error} />;
  const c = connection.data;
  if (!c) return <p aria-busy="true">Loading…</p>;
  const caps = new Set(c.capabilities);
  const save = (next: string[]) => run(async () => (await admin.patch(`/connections/${connectionId}`, { capabilities: next }), connection.reload()));
  return (
    <div class="detail">
      <p>
        <a href={href('workspaces', workspaceId)}>← Workspace</a>
      </p>
      <h1>{c.name}</h1>
      <p class="muted">
        {c.kind} connection · <code>{c.id}</code>
      </p>
      <fieldset>
        <legend>Capabilities</legend>
        {CONTENT_CAPABILITIES.map((cap) => (
          <label key={cap} class="check">
            <input
              type="checkbox"
              checked={caps.has(cap)}
              onChange={(e) => void save(e.currentTarget.checked ? [...caps, cap] : [...caps].filter((x) => x !== cap))}
            />
            {cap}
          </label>
        ))}
        <label for="user-info">User information</label>
        <select
          id="user-info"
          value={USER_INFO.find((u) => caps.has(u)) ?? 'no_user_info'}
          onChange={(e) => void save([...[...caps].filter((x) => !(USER_INFO as readonly string[]).includes(x)), e.currentTarget.value])}
        >
          {USER_INFO.map((u) => (
            <option key={u} value={u}>
              {u}
            </option>
          ))}
        </select>
      </fieldset>
      <div class="actions">
        <button type="button" onClick={() => void run(async () => setIssued(await admin.post<Issued>(`/connections/${connectionId}/token`)))}>
          Rotate token
        </button>
        <button
          type="button"
          class="danger"
          onClick={() =>
            void run(async () => {
              await admin.delete(`/connections/${connectionId}`);
              go('workspaces', workspaceId);
            })
          }
        >
          Revoke connection
        </button>
      </div>
      {issued && <TokenShown issued={issued} />}
      <ErrorNote error={error} />
      <Shares workspaceId={workspaceId} connectionId={connectionId} onChanged={() => setTreeTick((t) => t + 1)} />
      <Section title="What this connection can see" id="visible">
        <VisibleTree key={treeTick} workspaceId={workspaceId} connectionId={connectionId} />
      </Section>
    </div>
  );
}

/** Everything granted to the connection, resolved to the workspace's objects (the tree's top). */
async function grantedObjects(connectionId: string): Promise<Grant[]> {
  const grants: Grant[] = [];
  let cursor: string | null = null;
  // A connection's grants are few (each is a page shared by hand); the list is still read page by page.
  do {
    const page: AdminList<Grant> = await admin.get(`/connections/${connectionId}/grants`, { start_cursor: cursor });
    grants.push(...page.results);
    cursor = page.next_cursor;
  } while (cursor && grants.length < 1000);
  return grants;
}

function Shares({ workspaceId, connectionId, onChanged }: { workspaceId: string; connectionId: string; onChanged: () => void }) {
  const grants = useLoad(
    async () => Promise.all((await grantedObjects(connectionId)).map((g) => admin.get<ContentObject>(`/objects/${g.object_id}`))),
    [connectionId],
  );
  const top = usePaged((cursor) => admin.get<AdminList<ContentObject>>(`/workspaces/${workspaceId}/objects`, { start_cursor: cursor }), [workspaceId]);
  const [choice, setChoice] = useState('');
  const [error, run] = useAction();
  const granted = new Set((grants.data ?? []).map((o) => o.id));
  return (
    <Section title="Shares" id="shares">
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await admin.post(`/connections/${connectionId}/grants`, { object_id: choice });
            setChoice('');
            grants.reload();
            onChanged();
          });
        }}
      >
        <label for="share-object">Share a page or database</label>
        <select id="share-object" value={choice} onChange={(e) => setChoice(e.currentTarget.value)} required>
          <option value="">Choose…</option>
          {top.items
            .filter((o) => !granted.has(o.id))
            .map((o) => (
              <option key={o.id} value={o.id}>
                {o.title || 'Untitled'}
              </option>
            ))}
        </select>
        {top.hasMore && (
          <button type="button" class="link" onClick={top.more}>
            List more pages
          </button>
        )}
        <button type="submit">Share</button>
      </form>
      <ErrorNote error={error ?? grants.error} />
      <ul class="list" aria-label="Shared pages">
        {(grants.data ?? []).map((o) => (
          <li key={o.id}>
            {o.title || 'Untitled'}{' '}
            <button
              type="button"
              class="danger small"
              aria-label={`Remove share of ${o.title || 'Untitled'}`}
              onClick={() =>
                void run(async () => {
                  await admin.delete(`/connections/${connectionId}/grants/${o.id}`);
                  grants.reload();
                  onChanged();
                })
              }
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** The shared objects, each the root of what the connection sees beneath it. */
function VisibleTree({ workspaceId, connectionId }: { workspaceId: string; connectionId: string }) {
  const roots = useLoad(async () => {
    const grants = await grantedObjects(connectionId);
    // A share names an id; its title and kind are read one by one (shares are made by hand, so few).
    return Promise.all(grants.map((g) => admin.get<ContentObject>(`/objects/${g.object_id}`)));
  }, [workspaceId, connectionId]);
  if (roots.error) return <ErrorNote error={roots.error} />;
  if (!roots.data) return <p aria-busy="true">Loading…</p>;
  if (roots.data.length === 0) return <p class="muted">Nothing is shared with this connection: it sees no pages.</p>;
  return <ObjectTree workspaceId={workspaceId} roots={roots.data} label="Visible to this connection" />;
}
