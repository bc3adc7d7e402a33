/**
 * Syntax tree produced by parse(). `pos` is the 0-based offset where the
 * node's text starts; calls and operators also record where their name or
 * operator symbol is, for errors about the call itself.
 */
export type Node =
  | { kind: 'number'; value: number; pos: number }
  /** `end` is the offset just past the closing quote: a rename rewrites the literal in place. */
  | { kind: 'string'; value: string; pos: number; end: number }
  | { kind: 'boolean'; value: boolean; pos: number }
  | { kind: 'ident'; name: string; pos: number }
  | { kind: 'list'; items: Node[]; pos: number }
  /** `f(a, b)`, or `a.f(b)` with the receiver as first argument (`method: true`). */
  | { kind: 'call'; name: string; namePos: number; args: Node[]; pos: number; method: boolean }
  /** Operators use their canonical spelling: `-`, `+`, `not`, `and`, `or`, `==`, ... */
  | { kind: 'unary'; op: string; operand: Node; pos: number }
  | { kind: 'binary'; op: string; opPos: number; left: Node; right: Node; pos: number }
  | { kind: 'ternary'; cond: Node; then: Node; otherwise: Node; opPos: number; pos: number };
