/**
 * The converter alone (no server): for every block type with a markdown form, blocks → markdown →
 * blocks gives the same blocks, and markdown → blocks → markdown the same text; the same over
 * generated block trees (fast-check). Blocks are written as request members, canonical: adjacent
 * text of the same marks is one item (docs/decisions.md "Markdown").
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { renderBlocks, TYPES_WITH_MARKDOWN } from '../../src/domain/markdown/render.js';
import { parseMarkdown } from '../../src/domain/markdown/parse.js';
import { markdownToRichText, richTextToMarkdown } from '../../src/domain/markdown/inline.js';
import type { MarkdownBlock, ParsedBlock } from '../../src/domain/markdown/nodes.js';
import { toRequestBlocks } from '../../src/domain/markdown/parse.js';
import { MarkdownSyntaxError } from '../../src/domain/markdown/syntax.js';
import { checkMemberShapes } from '../../src/domain/blocks/checkMemberShapes.js';
import { ValidationFailure } from '../../src/errors/validationFailure.js';
import type { BlockInput } from '../../src/schemas/blocks.js';

type Json = Record<string, any>;
const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const A = (over: Json = {}) => ({ bold: false, italic: false, strikethrough: false, underline: false, code: false, color: 'default', ...over });
const R = (content: string, over: Json = {}, link: string | null = null) => [
  { type: 'text', text: { content, link: link ? { url: link } : null }, annotations: A(over) },
];
const options = { urlOf: (id: string) => id, includeTranscript: false };

let next = 1;
const block = (type: string, member: Json, children: MarkdownBlock[] = []): MarkdownBlock => ({ id: ID(next++), type, member, children });

/** One block of every type with a markdown form, with children where the type holds them. */
function everyType(): MarkdownBlock[] {
  const p = (text: string) => block('paragraph', { rich_text: R(text), color: 'default' });
  return [
    block('paragraph', { rich_text: R('para'), color: 'red' }, [p('child')]),
    block('paragraph', { rich_text: [], color: 'default' }),
    ...[1, 2, 3, 4].map((n) =>
      block(
        `heading_${n}`,
        { rich_text: R(`h${n}`), is_toggleable: n === 2, color: n === 3 ? 'blue_background' : 'default' },
        n === 2 ? [p('in toggle heading')] : [],
      ),
    ),
    block('bulleted_list_item', { rich_text: R('bullet'), color: 'default' }, [block('bulleted_list_item', { rich_text: R('nested'), color: 'default' })]),
    block('numbered_list_item', { rich_text: R('one'), color: 'default' }),
    block('numbered_list_item', { rich_text: R('three'), color: 'default', list_start_index: 3 }),
    block('to_do', { rich_text: R('open'), checked: false, color: 'default' }),
    block('to_do', { rich_text: R('done'), checked: true, color: 'green' }),
    block('toggle', { rich_text: R('toggle', { bold: true }), color: 'default' }, [p('hidden')]),
    block('quote', { rich_text: R('quoted'), color: 'gray' }),
    block('callout', { rich_text: R('note'), color: 'yellow_background', icon: { type: 'emoji', emoji: '💡' } }, [p('more')]),
    block('callout', { rich_text: [], color: 'default' }, [p('only child')]),
    block('code', { rich_text: [{ type: 'text', text: { content: 'const a = 1;\n\tindented ``` fence' } }], language: 'javascript', caption: [] }),
    block('code', { rich_text: [{ type: 'text', text: { content: 'plain' } }], language: 'plain text', caption: [] }),
    block('divider', {}),
    block('equation', { expression: 'e^{i\\pi} + 1 = 0' }),
    block('image', { external: { url: 'https://example.com/a.png' }, caption: [{ type: 'text', text: { content: 'An image [1]' } }] }),
    ...['video', 'audio', 'file', 'pdf'].map((type) =>
      block(type, { external: { url: `https://example.com/x.${type}` }, caption: R(`${type} caption`, { italic: true }) }),
    ),
    block('table', { table_width: 2, has_column_header: true, has_row_header: false }, [
      block('table_row', { cells: [R('a'), R('b', { code: true })] }),
      block('table_row', { cells: [R('c'), []] }),
    ]),
    // Both header flags have a form (FACTS.md §10.1 1.3: header-row, header-column), each carried on its own.
    block('table', { table_width: 1, has_column_header: false, has_row_header: true }, [block('table_row', { cells: [R('row head')] })]),
    block('table', { table_width: 2, has_column_header: true, has_row_header: true }, [block('table_row', { cells: [R('x'), R('y')] })]),
    block('column_list', {}, [block('column', {}, [p('left')]), block('column', {}, [p('right'), p('more right')])]),
    block('synced_block', { synced_from: null }, [p('synced')]),
    block('table_of_contents', { color: 'default' }),
    block('table_of_contents', { color: 'pink' }),
  ];
}

/** A parsed tree in the shape it was rendered from (ids aside). */
function shape(blocks: readonly ParsedBlock[]): Json[] {
  return blocks.map((b) => (b.kind === 'keep' ? { keep: b.id } : { type: b.type, member: b.member, children: shape(b.children) }));
}
function shapeOf(blocks: readonly MarkdownBlock[]): Json[] {
  return blocks.map((b) => ({ type: b.type, member: b.member, children: shapeOf(b.children) }));
}
/** Parsed blocks as blocks to render again, taking the ids of `original` (a synced block writes its own). */
const asBlocks = (parsed: readonly ParsedBlock[], original: readonly MarkdownBlock[] = []): MarkdownBlock[] =>
  parsed.map((b, i) =>
    b.kind === 'keep'
      ? { id: b.id, type: b.type, member: {}, children: [] }
      : { id: original[i]?.id ?? ID(900 + i), type: b.type, member: b.member, children: asBlocks(b.children, original[i]?.children) },
  );

describe('markdown round trip, every block type', () => {
  it('covers every type with a markdown form', () => {
    const covered = new Set(
      everyType().flatMap(function types(b): string[] {
        return [b.type, ...b.children.flatMap(types)];
      }),
    );
    for (const type of TYPES_WITH_MARKDOWN.filter((t) => !['child_page', 'child_database', 'meeting_notes'].includes(t))) assert.ok(covered.has(type), type);
  });

  for (const original of everyType()) {
    it(`${original.type}: blocks → markdown → blocks → markdown`, () => {
      const { markdown } = renderBlocks([original], options);
      const parsed = parseMarkdown(markdown);
      assert.deepEqual(shape(parsed), shapeOf([original]), markdown);
      assert.equal(renderBlocks(asBlocks(parsed, [original]), options).markdown, markdown);
    });
  }

  it('a whole page of them, one newline between top-level blocks', () => {
    const blocks = everyType();
    const { markdown, topLevel } = renderBlocks(blocks, options);
    assert.equal(markdown, topLevel.join('\n'));
    assert.deepEqual(shape(parseMarkdown(markdown)), shapeOf(blocks));
  });

  it('pages, databases, meeting notes and unknown blocks are kept by url', () => {
    const page = block('child_page', { title: 'Sub *page*' });
    const database = block('child_database', { title: 'Tasks' });
    const bookmark = block('bookmark', { url: 'https://example.com', caption: [] });
    const { markdown } = renderBlocks([page, database, bookmark], options);
    assert.equal(
      markdown,
      `<page url="${page.id}">Sub \\*page\\*</page>\n<database url="${database.id}">Tasks</database>\n<unknown url="${bookmark.id}" alt="bookmark"/>`,
    );
    assert.deepEqual(shape(parseMarkdown(markdown)), [{ keep: page.id }, { keep: database.id }, { keep: bookmark.id }]);
  });
});

describe('markdown round trip, text', () => {
  it('reads the documented forms', () => {
    const parsed = shape(
      parseMarkdown(
        '# Title {color="blue"}\n- [x] done\n1. first\n> q<br>two\n<details>\n<summary>T</summary>\n\tinside\n</details>\n| a | b |\n|---|---|\n| 1 | 2 |',
      ),
    );
    assert.deepEqual(parsed[0], { type: 'heading_1', member: { rich_text: R('Title'), is_toggleable: false, color: 'blue' }, children: [] });
    assert.equal(parsed[1].type, 'to_do');
    assert.equal(parsed[3].member.rich_text[0].text.content, 'q\ntwo');
    assert.equal(parsed[4].children[0].member.rich_text[0].text.content, 'inside');
    assert.equal(parsed[5].type, 'table');
    assert.equal(parsed[5].children.length, 2);
  });

  it('markdown → blocks → markdown keeps the text', () => {
    const text = [
      '# Heading {toggle="true"}',
      '\tUnder the heading with **bold**, *italic*, ~~strike~~, `code`, $x^2$ and [a link](https://example.com)',
      'Colours <span color="red">red</span> and <span underline="true">under</span><br>next line',
      '<mention-user url="00000000-0000-4000-8000-000000000001"/> met <mention-date start="2026-01-02"/>',
      '- [ ] task {color="orange_bg"}',
      '<empty-block/>',
      '---',
    ].join('\n');
    assert.equal(renderBlocks(asBlocks(parseMarkdown(text)), options).markdown, text);
  });

  it('text ending in `!` before a link stays text, not an image (found by the generated round trip)', () => {
    const items = [
      { type: 'text', text: { content: 'Wow!', link: null }, annotations: {} },
      { type: 'text', text: { content: 'site', link: { url: 'https://example.com/x' } }, annotations: {} },
    ] as Parameters<typeof richTextToMarkdown>[0];
    const markdown = richTextToMarkdown(items);
    assert.equal(markdown, 'Wow\\![site](https://example.com/x)');
    assert.deepEqual(
      markdownToRichText(markdown).map((i) => ('text' in i ? [i.text.content, i.text.link?.url ?? null] : [i.type, null])),
      [
        ['Wow!', null],
        ['site', 'https://example.com/x'],
      ],
    );
  });

  it('refuses what is not NFM, naming it', () => {
    for (const bad of [
      '<details>\n<summary>x</summary>\n\topen',
      '<widget/>',
      '\tindented first',
      '```js\nunclosed',
      '<span color="nope">x</span>',
      '<mention-user/>',
    ]) {
      assert.throws(
        () => parseMarkdown(bad),
        (e: Error) => e.constructor.name === 'MarkdownSyntaxError',
        bad,
      );
    }
  });
});

/** Text that exercises the escapes: NFM's special characters, spaces and line breaks. */
const textArb = fc
  .array(
    fc.constantFrom('a', 'b', 'Z', '1', ' ', '*', '_', '~', '`', '$', '[', ']', '<', '>', '{', '}', '|', '^', '\\', '#', '-', '!', '&', ':', '\n', 'é', '.'),
    { minLength: 1, maxLength: 12 },
  )
  .map((cs) => cs.join(''));
const annotationsArb = fc.record({
  bold: fc.boolean(),
  italic: fc.boolean(),
  strikethrough: fc.boolean(),
  underline: fc.boolean(),
  code: fc.boolean(),
  color: fc.constantFrom('default', 'red', 'blue_background'),
});
const itemArb = fc.oneof(
  { weight: 4, arbitrary: fc.record({ content: textArb, annotations: annotationsArb, link: fc.option(fc.constant('https://example.com/x'), { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ expression: fc.constantFrom('x^2', 'a+b', '\\frac{1}{2}'), annotations: annotationsArb }) },
);

/** Canonical rich text: adjacent text of the same marks merged, as the converter writes it. */
function richTextArb() {
  return fc
    .array(itemArb, { minLength: 1, maxLength: 4 })
    .map((items) =>
      markdownToRichText(
        richTextToMarkdown(
          items.map((i) =>
            'expression' in i
              ? { type: 'equation', equation: { expression: i.expression }, annotations: { ...i.annotations, code: false } }
              : { type: 'text', text: { content: i.content, link: i.link ? { url: i.link } : null }, annotations: i.annotations },
          ),
        ),
      ),
    );
}

describe('markdown round trip, generated (fast-check)', () => {
  it('rich text → markdown → rich text keeps every character with its marks, and is stable', () => {
    const linkArb = fc.option(fc.constantFrom('https://example.com/x', 'https://example.com/a b'), { nil: null });
    const wordArb = fc.constantFrom('ab', 'x1', 'Zé9');
    const generated = fc.oneof(
      fc
        .record({ content: textArb, annotations: annotationsArb, link: linkArb })
        .map((i) => ({ type: 'text', text: { content: i.content, link: i.link ? { url: i.link } : null }, annotations: i.annotations })),
      fc
        .record({ content: wordArb, annotations: annotationsArb, link: linkArb })
        .map((i) => ({ type: 'text', text: { content: i.content, link: i.link ? { url: i.link } : null }, annotations: { ...i.annotations, code: false } })),
      fc
        .record({ expression: fc.constantFrom('x^2', 'a+b'), annotations: annotationsArb })
        .map((i) => ({ type: 'equation', equation: { expression: i.expression }, annotations: { ...i.annotations, code: false } })),
    );
    // Each character with its marks; a line break cannot be code (`<br>` is not inside a code span).
    const perCharacter = (items: Json[]) =>
      items.flatMap((i) =>
        [...(i.text?.content ?? i.equation.expression)].map((c) =>
          JSON.stringify([c, i.type, c === '\n' ? { ...i.annotations, code: false } : i.annotations, i.text?.link?.url ?? null]),
        ),
      );
    fc.assert(
      fc.property(fc.array(generated, { minLength: 1, maxLength: 5 }), (rich) => {
        const markdown = richTextToMarkdown(rich);
        const back = markdownToRichText(markdown);
        assert.deepEqual(perCharacter(back), perCharacter(rich), markdown);
        assert.deepEqual(markdownToRichText(richTextToMarkdown(back)), back, markdown);
      }),
      { numRuns: 1000 },
    );
  });

  const leafArb = fc.oneof(
    fc.record({ type: fc.constant('paragraph'), rich: richTextArb(), color: fc.constantFrom('default', 'red') }),
    fc.record({ type: fc.constantFrom('bulleted_list_item', 'quote', 'toggle'), rich: richTextArb(), color: fc.constantFrom('default', 'gray_background') }),
    fc.record({ type: fc.constant('to_do'), rich: richTextArb(), checked: fc.boolean(), color: fc.constant('default') }),
    fc.record({ type: fc.constantFrom('heading_1', 'heading_3'), rich: richTextArb(), color: fc.constant('default') }),
    // A table's header flags have a form (header-row, header-column); its rows are its children.
    fc.record({
      type: fc.constant('table'),
      has_column_header: fc.boolean(),
      has_row_header: fc.boolean(),
      rows: fc.array(fc.tuple(richTextArb(), richTextArb()), { minLength: 1, maxLength: 3 }),
    }),
  );
  type TreeArb = fc.Arbitrary<{ leaf: unknown; children: unknown[] }>;
  const treeAt = (depth: number): TreeArb =>
    fc.record({ leaf: leafArb, children: depth === 0 ? fc.constant([]) : fc.array(treeAt(depth - 1), { maxLength: 2 }) }) as TreeArb;
  const treeArb = treeAt(2);

  function toBlock(node: any): MarkdownBlock {
    const { leaf } = node;
    if (leaf.type === 'table') {
      const rows = (leaf.rows as unknown[][]).map((cells) => block('table_row', { cells }));
      return block('table', { table_width: 2, has_column_header: leaf.has_column_header, has_row_header: leaf.has_row_header }, rows);
    }
    const member: Json = { rich_text: leaf.rich, color: leaf.color };
    if (leaf.type === 'to_do') member.checked = leaf.checked;
    let children = (node.children as any[]).map(toBlock);
    if (leaf.type.startsWith('heading')) {
      member.is_toggleable = children.length > 0;
    }
    if (leaf.type === 'paragraph' && leaf.rich.length === 0) children = [];
    return block(leaf.type, member, children);
  }

  it('block trees: blocks → markdown → blocks, and the markdown again', () => {
    fc.assert(
      fc.property(fc.array(treeArb, { minLength: 1, maxLength: 4 }), (nodes) => {
        const blocks = nodes.map(toBlock);
        const { markdown } = renderBlocks(blocks, options);
        const parsed = parseMarkdown(markdown);
        assert.deepEqual(shape(parsed), shapeOf(blocks), markdown);
        assert.equal(renderBlocks(asBlocks(parsed), options).markdown, markdown);
      }),
      { numRuns: 150 },
    );
  });

  it('any text is read as blocks or refused with a syntax or validation error, never another error', () => {
    const pieces = fc.constantFrom(
      'a',
      ' ',
      '\t',
      '\n',
      '#',
      '- ',
      '1. ',
      '> ',
      '```',
      '$$',
      '|',
      '<details>',
      '</details>',
      '<summary>x</summary>',
      '<callout>',
      '</callout>',
      '<table>',
      '</table>',
      '<tr>',
      '</tr>',
      '<td>c</td>',
      '<columns>',
      '<column>',
      '</column>',
      '</columns>',
      '<empty-block/>',
      '<span color="red">',
      '</span>',
      '<mention-user url="x"/>',
      '{color="red"}',
      '*',
      '_',
      '[',
      ']',
      '(',
      ')',
      '![a](b)',
      '---',
      '<br>',
      '<unknown url="u"/>',
      '- [ ] ',
      '<audio src="x">c</audio>',
      '<synced_block>',
      '</synced_block>',
      '<meeting-notes>',
      '<',
      '>',
      '&',
      '\\',
      '`',
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 30 }).map((p) => p.join('')),
        (markdown) => {
          try {
            checkMemberShapes(toRequestBlocks(parseMarkdown(markdown)) as unknown as BlockInput[], ['markdown']);
          } catch (error) {
            if (!(error instanceof MarkdownSyntaxError) && !(error instanceof ValidationFailure)) throw error;
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
