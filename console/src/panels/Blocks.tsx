import { useState } from 'preact/hooks';
import { v1 } from '../api.ts';
import { href } from '../router.ts';
import { MathView } from '../math.tsx';
import { RichTextView, plainText } from '../richText.tsx';
import { ErrorNote, useLoad } from '../ui.tsx';
import type { Block, BlockChildren, RichText } from '../types.ts';

type Client = ReturnType<typeof v1>;

/** A block's children, read 100 at a time through `/v1/blocks/{id}/children`; "More" reads the next page. */
export function BlockList({ client, parentId }: { client: Client; parentId: string }) {
  const [pages, setPages] = useState<Block[][]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const first = useLoad(async () => {
    const page = await client.get<BlockChildren>(`/blocks/${parentId}/children`, { page_size: 100 });
    setPages([page.results as Block[]]);
    setCursor(page.next_cursor);
    return true;
  }, [parentId]);
  const blocks = pages.flat();
  return (
    <>
      <ErrorNote error={first.error} />
      <Grouped client={client} blocks={blocks} />
      {cursor && (
        <button
          type="button"
          class="link"
          onClick={async () => {
            const page = await client.get<BlockChildren>(`/blocks/${parentId}/children`, { page_size: 100, start_cursor: cursor });
            setPages((old) => [...old, page.results as Block[]]);
            setCursor(page.next_cursor);
          }}
        >
          More blocks…
        </button>
      )}
    </>
  );
}

/** Consecutive list items share one list element, as in the service's pages. */
function Grouped({ client, blocks }: { client: Client; blocks: Block[] }) {
  const out = [];
  for (let i = 0; i < blocks.length; i++) {
    const type = blocks[i].type;
    if (type === 'bulleted_list_item' || type === 'numbered_list_item') {
      const run: Block[] = [];
      while (i < blocks.length && blocks[i].type === type) run.push(blocks[i++]);
      i--;
      const items = run.map((b) => <BlockView key={b.id} client={client} block={b} />);
      out.push(type === 'bulleted_list_item' ? <ul key={run[0].id}>{items}</ul> : <ol key={run[0].id}>{items}</ol>);
    } else out.push(<BlockView key={blocks[i].id} client={client} block={blocks[i]} />);
  }
  return <>{out}</>;
}

const Children = ({ client, block }: { client: Client; block: Block }) =>
  block.has_children ? (
    <div class="children">
      <BlockList client={client} parentId={block.id} />
    </div>
  ) : null;

type MediaFile = { type: 'external'; external: { url: string } } | { type: 'file'; file: { url: string; expiry_time: string } } | { type: string };
const urlOf = (media: MediaFile): string | undefined =>
  'external' in media ? media.external.url : 'file' in media ? media.file.url : 'file_upload' in media ? undefined : undefined;

function Media({ block }: { block: Block }) {
  const media = (block as unknown as Record<string, MediaFile & { caption?: RichText[]; name?: string }>)[block.type];
  const url = urlOf(media);
  const caption = media.caption && media.caption.length > 0 ? <RichTextView items={media.caption} /> : null;
  const name = media.name ?? (caption ? plainText(media.caption!) : block.type);
  let body;
  if (!url) body = <span class="muted">{block.type}: not uploaded yet</span>;
  else if (block.type === 'image') body = <img src={url} alt={name} loading="lazy" />;
  else if (block.type === 'video') body = <video src={url} controls preload="metadata" aria-label={name} />;
  else if (block.type === 'audio') body = <audio src={url} controls preload="metadata" aria-label={name} />;
  else
    body = (
      <a href={url} target="_blank" rel="noreferrer noopener">
        {name}
      </a>
    );
  return (
    <figure class={`block media ${block.type}`}>
      {body}
      {caption && <figcaption>{caption}</figcaption>}
    </figure>
  );
}

function Table({ client, block }: { client: Client; block: Extract<Block, { type: 'table' }> }) {
  const rows = useLoad(() => client.get<BlockChildren>(`/blocks/${block.id}/children`, { page_size: 100 }), [block.id]);
  const cells = ((rows.data?.results ?? []) as Block[]).filter((r) => r.type === 'table_row') as Extract<Block, { type: 'table_row' }>[];
  return (
    <table class="block table">
      <tbody>
        {cells.map((row, r) => (
          <tr key={row.id}>
            {row.table_row.cells.map((cell, c) => {
              const header = (r === 0 && block.table.has_column_header) || (c === 0 && block.table.has_row_header);
              const content = <RichTextView items={cell} />;
              return header ? (
                <th key={c} scope={r === 0 ? 'col' : 'row'}>
                  {content}
                </th>
              ) : (
                <td key={c}>{content}</td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One block as the service shows it; every block type the API presents has a case. */
export function BlockView({ client, block }: { client: Client; block: Block }) {
  const data = (block as unknown as Record<string, { rich_text?: RichText[]; color?: string }>)[block.type] ?? {};
  const text = data.rich_text ? <RichTextView items={data.rich_text} /> : null;
  const color = data.color && data.color !== 'default' ? `c-${data.color}` : '';
  switch (block.type) {
    case 'paragraph':
      return (
        <div class={`block ${color}`}>
          <p>{text}</p>
          <Children client={client} block={block} />
        </div>
      );
    case 'heading_1':
    case 'heading_2':
    case 'heading_3':
    case 'heading_4' as Block['type']: {
      // The page's title is the h1; a page's headings sit one level below it.
      const Tag = ({ heading_1: 'h2', heading_2: 'h3', heading_3: 'h4', heading_4: 'h5' } as const)[block.type as 'heading_1'];
      const toggleable = (data as { is_toggleable?: boolean }).is_toggleable;
      return toggleable ? (
        <details class={`block ${color}`}>
          <summary>
            <Tag class="inline-heading">{text}</Tag>
          </summary>
          <Children client={client} block={block} />
        </details>
      ) : (
        <Tag class={`block ${color}`}>{text}</Tag>
      );
    }
    case 'bulleted_list_item':
    case 'numbered_list_item':
      return (
        <li class={color}>
          {text}
          <Children client={client} block={block} />
        </li>
      );
    case 'to_do':
      return (
        <div class={`block todo ${color}`}>
          <label class="check">
            <input type="checkbox" checked={block.to_do.checked} disabled />
            <span class={block.to_do.checked ? 's' : ''}>{text}</span>
          </label>
          <Children client={client} block={block} />
        </div>
      );
    case 'toggle':
      return (
        <details class={`block ${color}`}>
          <summary>{text}</summary>
          <Children client={client} block={block} />
        </details>
      );
    case 'quote':
      return (
        <blockquote class={`block ${color}`}>
          {text}
          <Children client={client} block={block} />
        </blockquote>
      );
    case 'callout': {
      const icon = block.callout.icon;
      return (
        <div class={`block callout ${color}`} role="note">
          <span aria-hidden="true">{icon?.type === 'emoji' ? icon.emoji : '💡'}</span>
          <div>
            {text}
            <Children client={client} block={block} />
          </div>
        </div>
      );
    }
    case 'code':
      return (
        <figure class="block code">
          <pre>
            <code data-language={block.code.language}>{plainText(block.code.rich_text)}</code>
          </pre>
          <figcaption>
            {block.code.language}
            {block.code.caption.length > 0 && (
              <>
                {' · '}
                <RichTextView items={block.code.caption} />
              </>
            )}
          </figcaption>
        </figure>
      );
    case 'equation':
      return (
        <div class="block equation">
          <MathView expression={block.equation.expression} display={true} />
        </div>
      );
    case 'divider':
      return <hr class="block" />;
    case 'table':
      return <Table client={client} block={block} />;
    case 'image':
    case 'video':
    case 'audio':
    case 'file':
    case 'pdf':
      return <Media block={block} />;
    case 'bookmark':
    case 'embed':
    case 'link_preview': {
      const url = (block as unknown as Record<string, { url: string }>)[block.type].url;
      return (
        <p class={`block ${block.type}`}>
          <a href={url} target="_blank" rel="noreferrer noopener">
            {url}
          </a>
        </p>
      );
    }
    case 'child_page':
      return (
        <p class="block child">
          ▤ <a href={childHref('page', block.id)}>{block.child_page.title || 'Untitled'}</a>
        </p>
      );
    case 'child_database':
      return (
        <p class="block child">
          ▦ <a href={childHref('database', block.id)}>{block.child_database.title || 'Untitled'}</a>
        </p>
      );
    case 'link_to_page':
      return (
        <p class="block child">
          ↗ {'page_id' in block.link_to_page ? block.link_to_page.page_id : 'database_id' in block.link_to_page ? block.link_to_page.database_id : ''}
        </p>
      );
    case 'column_list':
      return (
        <div class="block columns-block">
          <BlockList client={client} parentId={block.id} />
        </div>
      );
    case 'column':
      return (
        <div class="block column">
          <BlockList client={client} parentId={block.id} />
        </div>
      );
    case 'synced_block':
    case 'template':
      return (
        <div class={`block ${block.type}`}>
          <Children client={client} block={block} />
        </div>
      );
    case 'table_of_contents':
      return <p class="block muted">Table of contents</p>;
    case 'breadcrumb':
      return <p class="block muted">Breadcrumb</p>;
    case 'meeting_notes':
    case 'transcription': {
      const notes = (block as unknown as Record<string, { title?: RichText[]; status?: string }>)[block.type];
      return (
        <div class="block meeting-notes" role="note">
          <strong>{notes.title ? plainText(notes.title) || 'Meeting notes' : 'Meeting notes'}</strong> <span class="badge">{notes.status ?? ''}</span>
          <Children client={client} block={block} />
        </div>
      );
    }
    default:
      return <p class="block muted">Unsupported block ({block.type})</p>;
  }
}

/**
 * A child page or database opens in the content panel, as from the tree: same workspace, same
 * top-level ancestor (the one shared with the console's connection), read from where this page is.
 */
function childHref(kind: 'page' | 'database', id: string): string {
  const [, workspaceId, , , rootId] = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  return href('content', workspaceId, kind, id, rootId);
}
