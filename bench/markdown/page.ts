import type { MarkdownBlock } from '../../src/domain/markdown/nodes.js';

/**
 * A page of `count` top-level blocks cycling through every type with a markdown form, with rich
 * text that uses every annotation, and children where a type holds them (they count too).
 */
export function benchPage(count: number): MarkdownBlock[] {
  const annotations = (over: Record<string, unknown> = {}) => ({
    bold: false,
    italic: false,
    strikethrough: false,
    underline: false,
    code: false,
    color: 'default',
    ...over,
  });
  const text = (content: string, over: Record<string, unknown> = {}, link: string | null = null) => ({
    type: 'text',
    text: { content, link: link ? { url: link } : null },
    annotations: annotations(over),
    plain_text: content,
    href: link,
  });
  const rich = (n: number) => [
    text(`Block ${n} with `),
    text('bold', { bold: true }),
    text(', '),
    text('italic link', { italic: true, color: 'red' }, 'https://example.com/a'),
    text(', '),
    text('struck', { strikethrough: true }),
    text(' and '),
    text('underlined', { underline: true }),
    text(' text, '),
    text('code()', { code: true }),
    text(' and '),
    { type: 'equation', equation: { expression: 'x^2' }, annotations: annotations(), plain_text: 'x^2', href: null },
    text(' (escapes: * _ [ ] < > $ |)'),
  ];
  let id = 0;
  const block = (type: string, member: Record<string, unknown>, children: MarkdownBlock[] = []): MarkdownBlock => ({
    id: `00000000-0000-4000-8000-${String(++id).padStart(12, '0')}`,
    type,
    member,
    children,
  });
  const makers: Array<(n: number) => MarkdownBlock> = [
    (n) => block('paragraph', { rich_text: rich(n), color: 'default', icon: null }),
    (n) => block('heading_1', { rich_text: rich(n), is_toggleable: false, color: 'default' }),
    (n) => block('heading_2', { rich_text: rich(n), is_toggleable: false, color: 'blue' }),
    (n) => block('heading_3', { rich_text: rich(n), is_toggleable: false, color: 'default' }),
    (n) => block('heading_4', { rich_text: rich(n), is_toggleable: false, color: 'default' }),
    (n) => block('bulleted_list_item', { rich_text: rich(n), color: 'default' }),
    (n) => block('numbered_list_item', { rich_text: rich(n), color: 'default' }),
    (n) => block('to_do', { rich_text: rich(n), checked: n % 2 === 0, color: 'default' }),
    (n) => block('toggle', { rich_text: rich(n), color: 'default' }, [block('paragraph', { rich_text: rich(n), color: 'default' })]),
    (n) => block('quote', { rich_text: rich(n), color: 'default' }),
    (n) => block('callout', { rich_text: rich(n), color: 'gray_background', icon: { type: 'emoji', emoji: '💡' } }),
    (n) =>
      block('code', {
        rich_text: [{ type: 'text', text: { content: `const n = ${n};\nconsole.log(n);` }, plain_text: `const n = ${n};\nconsole.log(n);` }],
        language: 'javascript',
        caption: [],
      }),
    () => block('divider', {}),
    (n) => block('equation', { expression: `e^{${n}}` }),
    (n) => block('image', { type: 'external', external: { url: `https://example.com/${n}.png` }, caption: [] }),
    (n) => block('video', { type: 'external', external: { url: `https://example.com/${n}.mp4` }, caption: rich(n) }),
    (n) => block('audio', { type: 'external', external: { url: `https://example.com/${n}.mp3` }, caption: [] }),
    (n) => block('file', { type: 'external', external: { url: `https://example.com/${n}.zip` }, caption: [], name: `${n}.zip` }),
    (n) => block('pdf', { type: 'external', external: { url: `https://example.com/${n}.pdf` }, caption: [] }),
    (n) => block('table', { table_width: 2, has_column_header: true, has_row_header: false }, [block('table_row', { cells: [rich(n), rich(n + 1)] })]),
    (n) => block('column_list', {}, [block('column', {}, [block('paragraph', { rich_text: rich(n), color: 'default' })]), block('column', {}, [])]),
    (n) => block('synced_block', { synced_from: null }, [block('paragraph', { rich_text: rich(n), color: 'default' })]),
    () => block('table_of_contents', { color: 'default' }),
    (n) => block('child_page', { title: `Page ${n}` }),
    (n) => block('child_database', { title: `Database ${n}` }),
    (n) => block('bookmark', { url: `https://example.com/${n}`, caption: [] }),
  ];
  const blocks: MarkdownBlock[] = [];
  for (let n = 0; n < count; n++) blocks.push(makers[n % makers.length](n));
  return blocks;
}
