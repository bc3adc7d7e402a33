import { Type } from 'typebox';
import { StrictObject } from '../../../schemas/common.js';
import { Caption, RichText } from '../../../schemas/blocks.js';
import { PLAIN, presentFields, type BlockMarkdown, type WritableBlockTypeDefinition } from './definition.js';
import { plainOf } from '../../markdown/forms.js';
import { MarkdownSyntaxError } from '../../markdown/syntax.js';

/** The languages a code block may name (the SDK's LanguageRequest). */
export const CODE_LANGUAGES = [
  'abap',
  'abc',
  'agda',
  'arduino',
  'ascii art',
  'assembly',
  'bash',
  'basic',
  'bnf',
  'c',
  'c#',
  'c++',
  'clojure',
  'coffeescript',
  'coq',
  'css',
  'dart',
  'dhall',
  'diff',
  'docker',
  'ebnf',
  'elixir',
  'elm',
  'erlang',
  'f#',
  'flow',
  'fortran',
  'gherkin',
  'glsl',
  'go',
  'graphql',
  'groovy',
  'haskell',
  'hcl',
  'html',
  'idris',
  'java',
  'javascript',
  'json',
  'julia',
  'kotlin',
  'latex',
  'less',
  'lisp',
  'livescript',
  'llvm ir',
  'lua',
  'makefile',
  'markdown',
  'markup',
  'matlab',
  'mathematica',
  'mermaid',
  'nix',
  'notion formula',
  'objective-c',
  'ocaml',
  'pascal',
  'perl',
  'php',
  'plain text',
  'powershell',
  'prolog',
  'protobuf',
  'purescript',
  'python',
  'r',
  'racket',
  'reason',
  'ruby',
  'rust',
  'sass',
  'scala',
  'scheme',
  'scss',
  'shell',
  'smalltalk',
  'solidity',
  'sql',
  'swift',
  'toml',
  'typescript',
  'vb.net',
  'verilog',
  'vhdl',
  'visual basic',
  'webassembly',
  'xml',
  'yaml',
  'java/c/c++/c#',
] as const;

const Language = Type.Enum([...CODE_LANGUAGES]);

export const code: WritableBlockTypeDefinition = {
  ...PLAIN,
  richText: true,
  caption: true,
  request: {
    create: () => StrictObject({ rich_text: RichText, language: Language, caption: Caption }),
    update: StrictObject({ rich_text: Type.Optional(RichText), language: Type.Optional(Language), caption: Caption }),
    deepestLevel: 2,
    build: async (c) => ({ caption: await c.rich('caption'), rich_text: await c.rich('rich_text'), language: c.keep('language', 'plain text') }),
  },
  present: presentFields('caption', 'rich_text', 'language'),
  markdown: codeMarkdown(),
};

const LANGUAGES: ReadonlySet<string> = new Set(CODE_LANGUAGES);

/**
 * A fenced block, content literal (its annotations and caption have no markdown form); the fence
 * grows past any run of backticks in the content. `plain text` is written without a language.
 */
function codeMarkdown(): BlockMarkdown {
  return {
    render(block) {
      const content = plainOf(block.member.rich_text);
      const longest = Math.max(2, ...(content.match(/`+/g) ?? []).map((run) => run.length));
      const fence = '`'.repeat(longest + 1);
      const language = block.member.language === 'plain text' ? '' : String(block.member.language ?? '');
      return [`${fence}${language}`, ...content.split('\n'), fence];
    },
    parse(node) {
      if (node.flow?.type !== 'code') return null;
      const named = [node.flow.lang, node.flow.meta].filter(Boolean).join(' ').toLowerCase();
      const language = named === '' ? 'plain text' : named;
      if (!LANGUAGES.has(language)) throw new MarkdownSyntaxError(`\`${language}\` is not a code block language`);
      const content = node.flow.value;
      const items = [];
      for (let i = 0; i < content.length || i === 0; i += 2000) items.push({ type: 'text', text: { content: content.slice(i, i + 2000) } });
      return { member: { rich_text: content ? items : [], language, caption: [] }, children: node.children };
    },
  };
}
