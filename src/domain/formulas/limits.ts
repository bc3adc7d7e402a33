// Limits exist so that a formula written by any API client cannot exhaust the
// server's memory, CPU or call stack. They are deliberately generous for real use.

export const MAX_EXPRESSION_LENGTH = 10_000;
/** Syntactic nesting: parentheses, calls, list literals, unary operators. */
export const MAX_NESTING_DEPTH = 200;
/** Tree depth including long left-deep operator chains such as `a + b + c + ...`. */
export const MAX_TREE_DEPTH = 1_000;
/** Upper bound on the length produced by repeat(), padStart() and padEnd(). */
export const MAX_GENERATED_TEXT = 10_000;
/** Any text value is truncated to this many characters (bounds doubling via `+`). */
export const MAX_TEXT_LENGTH = 100_000;
/** Any list value is truncated to this many items (bounds doubling via concat()). */
export const MAX_LIST_LENGTH = 10_000;
/** Evaluation steps per formula evaluation; nested map() over big lists hits this. */
export const MAX_EVALUATION_STEPS = 1_000_000;
