import type { Node } from './ast.js';
import { FormulaError } from './formulaError.js';
import { MAX_NESTING_DEPTH, MAX_TREE_DEPTH } from './limits.js';
import { tokenize, type Token } from './tokenize.js';

const COMPARISONS = new Set(['==', '!=', '>', '>=', '<', '<=']);
const KEYWORDS = new Set(['true', 'false', 'not', 'and', 'or']);

/**
 * Precedence, loosest first: `? :`, or/||, and/&&, comparisons, + -, * / %,
 * ^ (right-associative), unary - + ! not, then postfix `.method()`.
 */
export function parse(source: string): Node {
  return new Parser(tokenize(source)).parseFormula();
}

class Parser {
  private i = 0;
  private nesting = 0;
  /** Tree depth of every node built so far, to reject chains that would overflow later recursion. */
  private readonly depths = new WeakMap<Node, number>();

  constructor(private readonly tokens: Token[]) {}

  parseFormula(): Node {
    if (this.peek().kind === 'eof') throw new FormulaError('Formula is empty', 0);
    const node = this.expression();
    const t = this.peek();
    if (t.kind !== 'eof') throw new FormulaError(`Unexpected ${describe(t)}; expected an operator or the end of the formula`, t.pos);
    return node;
  }

  // Every parenthesis, argument, list item and branch goes through here, so
  // this is where syntactic nesting is counted.
  private expression(): Node {
    this.enter();
    const node = this.ternary();
    this.nesting--;
    return node;
  }

  private ternary(): Node {
    const cond = this.binaryLevel(0);
    const q = this.peek();
    if (!this.isOp(q, '?')) return cond;
    this.i++;
    const then = this.expression();
    this.expectOp(':', 'to continue the "? :" expression');
    const otherwise = this.expression();
    return this.built({ kind: 'ternary', cond, then, otherwise, opPos: q.pos, pos: cond.pos }, cond, then, otherwise);
  }

  // Levels: 0 or, 1 and, 2 comparisons, 3 additive, 4 multiplicative.
  private binaryLevel(level: number): Node {
    if (level > 4) return this.power();
    let left = this.binaryLevel(level + 1);
    for (;;) {
      const t = this.peek();
      const op = binaryOperator(t, level);
      if (op === null) return left;
      this.i++;
      const right = this.binaryLevel(level + 1);
      left = this.built({ kind: 'binary', op, opPos: t.pos, left, right, pos: left.pos }, left, right);
    }
  }

  private power(): Node {
    const base = this.unary();
    const t = this.peek();
    if (!this.isOp(t, '^')) return base;
    this.i++;
    this.enter();
    const exponent = this.power();
    this.nesting--;
    return this.built({ kind: 'binary', op: '^', opPos: t.pos, left: base, right: exponent, pos: base.pos }, base, exponent);
  }

  private unary(): Node {
    const t = this.peek();
    const next = this.tokens[this.i + 1];
    // `-4.5.round()` is round(-4.5) in Notion: a minus sign directly before a
    // number literal belongs to the literal, not to the whole postfix chain.
    if (this.isOp(t, '-') && next.kind === 'number' && next.pos === t.pos + 1) {
      this.i += 2;
      return this.postfix({ kind: 'number', value: -next.value, pos: t.pos });
    }
    let op: string | null = null;
    if (this.isOp(t, '-') || this.isOp(t, '+')) op = t.text;
    else if (this.isOp(t, '!') || (t.kind === 'ident' && t.text === 'not')) op = 'not';
    if (op === null) return this.postfix(this.primary());
    this.i++;
    this.enter();
    const operand = this.unary();
    this.nesting--;
    return this.built({ kind: 'unary', op, operand, pos: t.pos }, operand);
  }

  private postfix(node: Node): Node {
    let current = node;
    while (this.isOp(this.peek(), '.')) {
      this.i++;
      const name = this.peek();
      if (name.kind !== 'ident' || KEYWORDS.has(name.text)) {
        throw new FormulaError(`Expected a function name after "." but found ${describe(name)}`, name.pos);
      }
      this.i++;
      if (!this.isOp(this.peek(), '(')) {
        throw new FormulaError(`Expected "(" after "${name.text}"; methods are called like .${name.text}()`, this.peek().pos);
      }
      const args = this.callArguments();
      current = this.built({ kind: 'call', name: name.text, namePos: name.pos, args: [current, ...args], pos: current.pos, method: true }, current, ...args);
    }
    return current;
  }

  private primary(): Node {
    const t = this.peek();
    switch (t.kind) {
      case 'number':
        this.i++;
        return { kind: 'number', value: t.value, pos: t.pos };
      case 'string':
        this.i++;
        return { kind: 'string', value: t.text, pos: t.pos, end: t.end ?? t.pos };
      case 'ident': {
        this.i++;
        if (t.text === 'true' || t.text === 'false') return { kind: 'boolean', value: t.text === 'true', pos: t.pos };
        if (KEYWORDS.has(t.text)) throw new FormulaError(`Unexpected "${t.text}"; expected a value`, t.pos);
        if (!this.isOp(this.peek(), '(')) return { kind: 'ident', name: t.text, pos: t.pos };
        const args = this.callArguments();
        return this.built({ kind: 'call', name: t.text, namePos: t.pos, args, pos: t.pos, method: false }, ...args);
      }
      case 'op':
        if (t.text === '(') {
          this.i++;
          const inner = this.expression();
          this.expectOp(')', 'to close "("');
          // Errors about a parenthesised argument should point at its "(".
          const wrapped = { ...inner, pos: t.pos };
          this.depths.set(wrapped, this.depths.get(inner) ?? 1);
          return wrapped;
        }
        if (t.text === '[') return this.listLiteral();
        break;
      case 'eof':
        throw new FormulaError('Unexpected end of formula; expected a value', t.pos);
    }
    throw new FormulaError(`Unexpected ${describe(t)}; expected a value`, t.pos);
  }

  private listLiteral(): Node {
    const open = this.next();
    const items: Node[] = [];
    if (!this.isOp(this.peek(), ']')) {
      for (;;) {
        items.push(this.expression());
        if (!this.isOp(this.peek(), ',')) break;
        this.i++;
      }
    }
    this.expectOp(']', 'to close the list');
    return this.built({ kind: 'list', items, pos: open.pos }, ...items);
  }

  private callArguments(): Node[] {
    this.next(); // "("
    const args: Node[] = [];
    if (!this.isOp(this.peek(), ')')) {
      for (;;) {
        args.push(this.expression());
        if (!this.isOp(this.peek(), ',')) break;
        this.i++;
      }
    }
    this.expectOp(')', 'to close the argument list');
    return args;
  }

  private enter(): void {
    this.nesting++;
    if (this.nesting > MAX_NESTING_DEPTH) {
      throw new FormulaError(`Formula is nested too deeply (more than ${MAX_NESTING_DEPTH} levels)`, this.peek().pos);
    }
  }

  private built(node: Node, ...children: Node[]): Node {
    let depth = 0;
    for (const c of children) depth = Math.max(depth, this.depths.get(c) ?? 1);
    depth++;
    if (depth > MAX_TREE_DEPTH) {
      const at = 'opPos' in node ? node.opPos : 'namePos' in node ? node.namePos : node.pos;
      throw new FormulaError(`Formula is nested too deeply (more than ${MAX_TREE_DEPTH} chained operations)`, at);
    }
    this.depths.set(node, depth);
    return node;
  }

  private peek(): Token {
    return this.tokens[this.i];
  }

  private next(): Token {
    return this.tokens[this.i++];
  }

  private isOp(t: Token, text: string): boolean {
    return t.kind === 'op' && t.text === text;
  }

  private expectOp(text: string, why: string): void {
    const t = this.peek();
    if (!this.isOp(t, text)) throw new FormulaError(`Expected "${text}" ${why} but found ${describe(t)}`, t.pos);
    this.i++;
  }
}

function binaryOperator(t: Token, level: number): string | null {
  const text = t.text;
  switch (level) {
    case 0:
      return (t.kind === 'ident' && text === 'or') || (t.kind === 'op' && text === '||') ? 'or' : null;
    case 1:
      return (t.kind === 'ident' && text === 'and') || (t.kind === 'op' && text === '&&') ? 'and' : null;
    case 2:
      return t.kind === 'op' && COMPARISONS.has(text) ? text : null;
    case 3:
      return t.kind === 'op' && (text === '+' || text === '-') ? text : null;
    default:
      return t.kind === 'op' && (text === '*' || text === '/' || text === '%') ? text : null;
  }
}

function describe(t: Token): string {
  switch (t.kind) {
    case 'eof':
      return 'the end of the formula';
    case 'string':
      return 'a string';
    case 'number':
      return `number ${t.text}`;
    default:
      return `"${t.text}"`;
  }
}
