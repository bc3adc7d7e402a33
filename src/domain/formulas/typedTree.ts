import type { FunctionDef } from './functions/functionDef.js';
import type { Ty } from './typeSystem.js';
import type { FormulaValue } from './types.js';

/** The checked tree: every node has a static type and every call a resolved function. */
export type Typed =
  | { kind: 'const'; value: FormulaValue; type: Ty }
  | { kind: 'prop'; name: string; type: Ty }
  | { kind: 'var'; name: string; type: Ty }
  | { kind: 'list'; items: Typed[]; type: Ty }
  | { kind: 'let'; bindings: { name: string; value: Typed }[]; body: Typed; type: Ty }
  | { kind: 'call'; fn: FunctionDef; args: Typed[]; argTypes: Ty[]; type: Ty };
