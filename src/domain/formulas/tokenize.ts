import { FormulaError } from './formulaError.js';

export type TokenKind = 'number' | 'string' | 'ident' | 'op' | 'eof';

export interface Token {
  kind: TokenKind;
  /** Operator/identifier text, or the decoded value of a string literal. */
  text: string;
  /** Numeric value of number tokens. */
  value: number;
  pos: number;
  /** Offset just past the token's text, for string literals (their text is decoded). */
  end?: number;
}

// Longest operators first so `>=` wins over `>`.
const OPERATORS = ['==', '!=', '>=', '<=', '&&', '||', '+', '-', '*', '/', '%', '^', '>', '<', '!', '?', ':', ',', '(', ')', '[', ']', '.'];

const IDENT_START = /[\p{L}_$]/u;
const IDENT_PART = /[\p{L}\p{N}_$]/u;

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (source.startsWith('/*', i)) {
      const close = source.indexOf('*/', i + 2);
      if (close < 0) throw new FormulaError('Unterminated comment', i);
      i = close + 2;
      continue;
    }
    if (ch >= '0' && ch <= '9') {
      i = readNumber(source, i, tokens);
      continue;
    }
    if (ch === '"') {
      i = readString(source, i, tokens);
      continue;
    }
    if (IDENT_START.test(ch)) {
      const start = i;
      while (i < source.length && IDENT_PART.test(source[i])) i++;
      tokens.push({ kind: 'ident', text: source.slice(start, i), value: 0, pos: start });
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (op !== undefined) {
      tokens.push({ kind: 'op', text: op, value: 0, pos: i });
      i += op.length;
      continue;
    }
    if (ch === '=') throw new FormulaError('Unexpected "="; use "==" to compare values', i);
    if (ch === "'") throw new FormulaError('Strings must use double quotes', i);
    throw new FormulaError(`Unexpected character "${ch}"`, i);
  }
  tokens.push({ kind: 'eof', text: '', value: 0, pos: source.length });
  return tokens;
}

function readNumber(source: string, start: number, tokens: Token[]): number {
  const m = /^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(source.slice(start, start + 400));
  // The regex always matches at least one digit because the caller saw one.
  const text = m === null ? source[start] : m[0];
  const end = start + text.length;
  if (end < source.length && IDENT_START.test(source[end])) {
    throw new FormulaError(`Invalid number "${text}${source[end]}"`, start);
  }
  tokens.push({ kind: 'number', text, value: Number(text), pos: start });
  return end;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  n: '\n',
  t: '\t',
  r: '\r',
};

function readString(source: string, start: number, tokens: Token[]): number {
  let i = start + 1;
  let out = '';
  while (i < source.length) {
    const ch = source[i];
    if (ch === '"') {
      tokens.push({ kind: 'string', text: out, value: 0, pos: start, end: i + 1 });
      return i + 1;
    }
    if (ch === '\\') {
      const next = source[i + 1];
      if (next === undefined) break;
      if (next === 'u') {
        const hex = source.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new FormulaError('Invalid \\u escape in string', i);
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
        continue;
      }
      // Regex escapes keep their backslash so patterns like "\d+" or "\bword"
      // work whether the author wrote one backslash or two.
      out += SIMPLE_ESCAPES[next] ?? (/[dDwWsSbB.()[\]{}*+?^$|]/.test(next) ? `\\${next}` : next);
      i += 2;
      continue;
    }
    out += ch;
    i++;
  }
  throw new FormulaError('Unterminated string', start);
}
