import { useState } from 'preact/hooks';
import type { v1 } from '../api.ts';
import { conditionsFor, filterable, filterJson, FORMULA_RESULTS, ROLLUP_KINDS, type Condition, type Group } from '../filters.ts';
import { plainText } from '../richText.tsx';
import { ErrorNote, TrashToggle, useAction, useLoad } from '../ui.tsx';
import type { DataSource, Database, Page, QueryResult } from '../types.ts';

type Client = ReturnType<typeof v1>;
type Property = DataSource['properties'][string];
type Sort = { property: string; direction: 'ascending' | 'descending' };
const PAGE_SIZE = 50;

export function DatabaseView({ client, databaseId }: { client: Client; databaseId: string }) {
  const database = useLoad(() => client.get<Database>(`/databases/${databaseId}`), [databaseId]);
  const [sourceId, setSourceId] = useState<string | null>(null);
  const [error, run] = useAction();
  if (database.error) return <ErrorNote error={database.error} />;
  const d = database.data;
  if (!d) return <p aria-busy="true">Loading…</p>;
  const source = sourceId ?? d.data_sources[0]?.id;
  const setTrash = (in_trash: boolean) => run(async () => (await client.patch(`/databases/${databaseId}`, { in_trash }), database.reload()));
  return (
    <article class="detail database" aria-labelledby="database-title">
      <header class="page-head">
        <h1 id="database-title">{plainText(d.title) || 'Untitled'}</h1>
        <TrashToggle inTrash={d.in_trash} setTrash={setTrash} />
      </header>
      <ErrorNote error={error} />
      {d.data_sources.length > 1 && (
        <p>
          <label for="data-source">Data source</label>{' '}
          <select id="data-source" value={source} onChange={(e) => setSourceId(e.currentTarget.value)}>
            {d.data_sources.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </p>
      )}
      {source ? <DataSourceTable key={source} client={client} dataSourceId={source} /> : <p class="muted">This database has no data source.</p>}
    </article>
  );
}

function DataSourceTable({ client, dataSourceId }: { client: Client; dataSourceId: string }) {
  const source = useLoad(() => client.get<DataSource>(`/data_sources/${dataSourceId}`), [dataSourceId]);
  const [draft, setDraft] = useState<Group>({ kind: 'group', op: 'and', items: [] });
  const [sorts, setSorts] = useState<Sort[]>([]);
  const [applied, setApplied] = useState<{ filter?: Record<string, unknown>; sorts: Sort[] }>({ sorts: [] });
  if (source.error) return <ErrorNote error={source.error} />;
  const s = source.data;
  if (!s) return <p aria-busy="true">Loading…</p>;
  const properties = Object.entries(s.properties).map(([name, p]) => ({ ...p, name }) as Property & { name: string });
  const json = filterJson(draft);
  return (
    <>
      <div class="query-editor">
        <form
          aria-label="Filter and sort"
          onSubmit={(e) => {
            e.preventDefault();
            setApplied({ filter: json, sorts });
          }}
        >
          <fieldset>
            <legend>Filter</legend>
            <GroupEditor group={draft} depth={1} properties={properties} onChange={setDraft} />
          </fieldset>
          <fieldset>
            <legend>Sorts</legend>
            {sorts.map((sort, i) => (
              <div class="row" key={i}>
                <label>
                  Sort by{' '}
                  <select
                    aria-label="Sort by"
                    value={sort.property}
                    onChange={(e) => setSorts(sorts.map((x, j) => (j === i ? { ...x, property: e.currentTarget.value } : x)))}
                  >
                    {properties.map((p) => (
                      <option key={p.name}>{p.name}</option>
                    ))}
                  </select>
                </label>
                <label>
                  Direction{' '}
                  <select
                    aria-label="Direction"
                    value={sort.direction}
                    onChange={(e) => setSorts(sorts.map((x, j) => (j === i ? { ...x, direction: e.currentTarget.value as Sort['direction'] } : x)))}
                  >
                    <option>ascending</option>
                    <option>descending</option>
                  </select>
                </label>
                <button type="button" class="small" onClick={() => setSorts(sorts.filter((_, j) => j !== i))}>
                  Remove sort
                </button>
              </div>
            ))}
            <button type="button" class="small" onClick={() => setSorts([...sorts, { property: properties[0].name, direction: 'ascending' }])}>
              Add sort
            </button>
          </fieldset>
          <button type="submit">Apply</button>
        </form>
        <div class="json">
          <label for="filter-json">Query body (copy into code)</label>
          <textarea
            id="filter-json"
            readOnly
            rows={22}
            value={JSON.stringify({ ...(json ? { filter: json } : {}), ...(sorts.length ? { sorts } : {}) }, null, 2)}
          />
        </div>
      </div>
      <Rows key={JSON.stringify(applied)} client={client} dataSourceId={dataSourceId} properties={properties} query={applied} />
    </>
  );
}

const newCondition = (properties: (Property & { name: string })[]): Condition => {
  const p = properties.find((x) => filterable(x.type)) ?? properties[0];
  const c: Condition = { kind: 'condition', property: p.name, type: p.type, operator: '', value: '' };
  return withDefaults(c);
};
function withDefaults(c: Condition): Condition {
  const next = { ...c };
  if (next.type === 'formula' && !next.sub) next.sub = 'string';
  if (next.type === 'rollup' && !next.sub) next.sub = 'number';
  if (next.type === 'rollup' && !next.itemType) next.itemType = 'rich_text';
  const ops = Object.keys(conditionsFor(next));
  if (!ops.includes(next.operator)) next.operator = ops[0] ?? '';
  return next;
}

function GroupEditor({
  group,
  depth,
  properties,
  onChange,
  onRemove,
}: {
  group: Group;
  depth: number;
  properties: (Property & { name: string })[];
  onChange: (g: Group) => void;
  onRemove?: () => void;
}) {
  const set = (i: number, item: Condition | Group) => onChange({ ...group, items: group.items.map((x, j) => (j === i ? item : x)) });
  const remove = (i: number) => onChange({ ...group, items: group.items.filter((_, j) => j !== i) });
  return (
    <div class={`group depth-${depth}`} role="group" aria-label={depth === 1 ? 'Filter conditions' : 'Nested group'}>
      <label>
        Combine with{' '}
        <select aria-label="Combine with" value={group.op} onChange={(e) => onChange({ ...group, op: e.currentTarget.value as Group['op'] })}>
          <option value="and">and</option>
          <option value="or">or</option>
        </select>
      </label>
      {group.items.map((item, i) =>
        item.kind === 'group' ? (
          <GroupEditor key={i} group={item} depth={depth + 1} properties={properties} onChange={(g) => set(i, g)} onRemove={() => remove(i)} />
        ) : (
          <ConditionEditor key={i} condition={item} properties={properties} onChange={(c) => set(i, c)} onRemove={() => remove(i)} />
        ),
      )}
      <div class="row">
        <button type="button" class="small" onClick={() => onChange({ ...group, items: [...group.items, newCondition(properties)] })}>
          Add condition
        </button>
        {/* The API nests compound filters two levels deep. */}
        {depth < 2 && (
          <button
            type="button"
            class="small"
            onClick={() => onChange({ ...group, items: [...group.items, { kind: 'group', op: 'or', items: [newCondition(properties)] }] })}
          >
            Add group
          </button>
        )}
        {onRemove && (
          <button type="button" class="small" onClick={onRemove}>
            Remove group
          </button>
        )}
      </div>
    </div>
  );
}

function ConditionEditor({
  condition: c,
  properties,
  onChange,
  onRemove,
}: {
  condition: Condition;
  properties: (Property & { name: string })[];
  onChange: (c: Condition) => void;
  onRemove: () => void;
}) {
  const table = conditionsFor(c);
  const kind = table[c.operator];
  const property = properties.find((p) => p.name === c.property);
  const options =
    property && (property.type === 'select' || property.type === 'status' || property.type === 'multi_select')
      ? (property as unknown as Record<string, { options: { name: string }[] }>)[property.type].options
      : null;
  return (
    <div class="row condition">
      <label>
        Property{' '}
        <select
          aria-label="Property"
          value={c.property}
          onChange={(e) => {
            const p = properties.find((x) => x.name === e.currentTarget.value)!;
            onChange(withDefaults({ ...c, property: p.name, type: p.type, sub: undefined, itemType: undefined, value: '' }));
          }}
        >
          {properties
            .filter((p) => filterable(p.type))
            .map((p) => (
              <option key={p.name} value={p.name}>
                {p.name} ({p.type})
              </option>
            ))}
        </select>
      </label>
      {c.type === 'formula' && (
        <label>
          Result{' '}
          <select aria-label="Result" value={c.sub} onChange={(e) => onChange(withDefaults({ ...c, sub: e.currentTarget.value }))}>
            {FORMULA_RESULTS.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
      )}
      {c.type === 'rollup' && (
        <>
          <label>
            Rollup{' '}
            <select aria-label="Rollup" value={c.sub} onChange={(e) => onChange(withDefaults({ ...c, sub: e.currentTarget.value }))}>
              {ROLLUP_KINDS.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          </label>
          {c.sub !== 'number' && c.sub !== 'date' && (
            <label>
              Items{' '}
              <select aria-label="Items" value={c.itemType} onChange={(e) => onChange(withDefaults({ ...c, itemType: e.currentTarget.value }))}>
                {['rich_text', 'number', 'checkbox', 'date'].map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </select>
            </label>
          )}
        </>
      )}
      <label>
        Condition{' '}
        <select aria-label="Condition" value={c.operator} onChange={(e) => onChange({ ...c, operator: e.currentTarget.value })}>
          {Object.keys(table).map((op) => (
            <option key={op}>{op}</option>
          ))}
        </select>
      </label>
      {kind === 'boolean' ? (
        <label>
          Value{' '}
          <select aria-label="Value" value={c.value || 'true'} onChange={(e) => onChange({ ...c, value: e.currentTarget.value })}>
            <option>true</option>
            <option>false</option>
          </select>
        </label>
      ) : kind === 'verification' ? (
        <label>
          Value{' '}
          <select aria-label="Value" value={c.value} onChange={(e) => onChange({ ...c, value: e.currentTarget.value })}>
            {['verified', 'expired', 'none'].map((v) => (
              <option key={v}>{v}</option>
            ))}
          </select>
        </label>
      ) : kind === 'option' && options ? (
        <label>
          Value{' '}
          <select aria-label="Value" value={c.value} onChange={(e) => onChange({ ...c, value: e.currentTarget.value })}>
            <option value="">Choose…</option>
            {options.map((o) => (
              <option key={o.name}>{o.name}</option>
            ))}
          </select>
        </label>
      ) : kind === 'true' || kind === 'empty_object' ? null : (
        <label>
          Value{' '}
          <input
            aria-label="Value"
            type={(kind === 'number' ? 'number' : kind === 'date' ? 'date' : 'text') as 'text'}
            value={c.value}
            onInput={(e) => onChange({ ...c, value: e.currentTarget.value })}
          />
        </label>
      )}
      <button type="button" class="small" aria-label={`Remove condition on ${c.property}`} onClick={onRemove}>
        ✕
      </button>
    </div>
  );
}

/** A cell's value as text: every property type the API answers. */
function cellText(value: Page['properties'][string]): string {
  switch (value.type) {
    case 'title':
      return plainText(value.title);
    case 'rich_text':
      return plainText(value.rich_text);
    case 'number':
      return value.number === null ? '' : String(value.number);
    case 'checkbox':
      return value.checkbox ? '✓' : '';
    case 'select':
      return value.select?.name ?? '';
    case 'status':
      return value.status?.name ?? '';
    case 'multi_select':
      return value.multi_select.map((o) => o.name).join(', ');
    case 'date':
      return value.date ? value.date.start + (value.date.end ? ` → ${value.date.end}` : '') : '';
    case 'url':
      return value.url ?? '';
    case 'email':
      return value.email ?? '';
    case 'phone_number':
      return value.phone_number ?? '';
    case 'people':
      return value.people.map((p) => ('name' in p && p.name) || p.id).join(', ');
    case 'relation':
      return value.relation.map((r) => r.id).join(', ');
    case 'files':
      return value.files.map((f) => f.name).join(', ');
    case 'created_time':
      return value.created_time;
    case 'last_edited_time':
      return value.last_edited_time;
    case 'created_by':
      return ('name' in value.created_by && value.created_by.name) || value.created_by.id;
    case 'last_edited_by':
      return ('name' in value.last_edited_by && value.last_edited_by.name) || value.last_edited_by.id;
    case 'unique_id':
      return `${value.unique_id.prefix ? value.unique_id.prefix + '-' : ''}${value.unique_id.number ?? ''}`;
    case 'formula': {
      const f = value.formula;
      return f.type === 'string'
        ? (f.string ?? '')
        : f.type === 'number'
          ? String(f.number ?? '')
          : f.type === 'boolean'
            ? String(f.boolean)
            : f.type === 'date'
              ? (f.date?.start ?? '')
              : '';
    }
    case 'rollup': {
      const r = value.rollup;
      return r.type === 'number' ? String(r.number ?? '') : r.type === 'date' ? (r.date?.start ?? '') : r.type === 'array' ? `${r.array.length} items` : '';
    }
    case 'verification':
      return value.verification?.state ?? '';
    default:
      return '';
  }
}

/**
 * One page of the query's results at a time (the query planner's page, `page_size` 50): Next
 * follows the server's cursor, Previous goes back along the cursors already followed.
 */
function Rows({
  client,
  dataSourceId,
  properties,
  query,
}: {
  client: Client;
  dataSourceId: string;
  properties: { name: string }[];
  query: { filter?: Record<string, unknown>; sorts: Sort[] };
}) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1];
  const result = useLoad(
    () =>
      client.post<QueryResult>(`/data_sources/${dataSourceId}/query`, {
        page_size: PAGE_SIZE,
        ...(query.filter ? { filter: query.filter } : {}),
        ...(query.sorts.length ? { sorts: query.sorts } : {}),
        ...(cursor ? { start_cursor: cursor } : {}),
      }),
    [cursor],
  );
  const rows = (result.data?.results ?? []) as Page[];
  return (
    <div class="rows">
      <ErrorNote error={result.error} />
      <div class="table-scroll">
        <table aria-label="Rows" aria-busy={!result.data && !result.error}>
          <thead>
            <tr>
              {properties.map((p) => (
                <th key={p.name} scope="col">
                  {p.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-page-id={row.id}>
                {properties.map((p) => (
                  <td key={p.name}>{row.properties[p.name] ? cellText(row.properties[p.name]) : ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav class="pager" aria-label="Result pages">
        <button type="button" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous
        </button>
        <span>
          Page {cursors.length} · {rows.length} rows
        </span>
        <button type="button" disabled={!result.data?.has_more} onClick={() => setCursors([...cursors, result.data!.next_cursor])}>
          Next
        </button>
      </nav>
    </div>
  );
}
