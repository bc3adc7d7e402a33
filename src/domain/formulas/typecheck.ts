import type { Node } from './ast.js';
import { FormulaError } from './formulaError.js';
import type { CheckCall, FunctionDef } from './functions/functionDef.js';
import { BINARY_OPERATORS, FUNCTIONS, TERNARY, UNARY_OPERATORS } from './functions/registry.js';
import { T, elementType, tagRelation, toTy, typeName, unify, type Ty, type TypeSpec } from './typeSystem.js';
import type { Typed } from './typedTree.js';
import type { FormulaPropertyInfo, FormulaValue, PropertyReference } from './types.js';
import { conformToType, isPage } from './values.js';

export interface CheckEnvironment {
  properties: readonly FormulaPropertyInfo[];
  relatedSchemas?: (relationName: string) => FormulaPropertyInfo[] | undefined;
}

export interface CheckResult {
  tree: Typed;
  dependencies: string[];
  references: PropertyReference[];
  readsClock: boolean;
}

/** Functions whose result depends on when they are evaluated. */
const CLOCK_FUNCTIONS: ReadonlySet<string> = new Set(['now', 'today']);

/** Names that cannot be bound by let()/lets(). */
const RESERVED = new Set(['current', 'index', 'true', 'false', 'not', 'and', 'or']);

const CONSTANTS: ReadonlyMap<string, number> = new Map([
  ['e', Math.E],
  ['pi', Math.PI],
]);

type Scope = { name: string; type: Ty; next: Scope } | null;

/** Reads a property of a related page; argument 1 is the property name as a constant. */
const pageProperty: FunctionDef = {
  name: 'prop',
  minArgs: 2,
  maxArgs: 2,
  check: (c) => c.types[1],
  evaluate(c) {
    const page = c.arg(0);
    const name = c.arg(1);
    if (!isPage(page) || typeof name !== 'string') return null;
    return conformToType(page.getProperty(name), c.type);
  },
};

export function typecheck(ast: Node, env: CheckEnvironment): CheckResult {
  return new Checker(env).run(ast);
}

class Checker {
  private readonly dependencies: string[] = [];
  private readonly references: PropertyReference[] = [];
  private readsClock = false;

  constructor(private readonly env: CheckEnvironment) {}

  run(ast: Node): CheckResult {
    const tree = this.check(ast, null);
    this.references.sort((a, b) => a.start - b.start);
    return { tree, dependencies: this.dependencies, references: this.references, readsClock: this.readsClock };
  }

  private check(node: Node, scope: Scope): Typed {
    switch (node.kind) {
      case 'number':
        return { kind: 'const', value: node.value, type: T.number };
      case 'string':
        return { kind: 'const', value: node.value, type: T.string };
      case 'boolean':
        return { kind: 'const', value: node.value, type: T.boolean };
      case 'ident':
        return this.identifier(node.name, node.pos, scope);
      case 'list':
        return this.list(node.items, scope);
      case 'unary': {
        const fn = UNARY_OPERATORS.get(node.op);
        if (fn === undefined) throw new FormulaError(`Unknown operator "${node.op}"`, node.pos);
        return this.call(fn, node.op, [node.operand], node.pos, scope);
      }
      case 'binary': {
        const fn = BINARY_OPERATORS.get(node.op);
        if (fn === undefined) throw new FormulaError(`Unknown operator "${node.op}"`, node.pos);
        return this.call(fn, node.op, [node.left, node.right], node.opPos, scope);
      }
      case 'ternary':
        return this.call(TERNARY, '? :', [node.cond, node.then, node.otherwise], node.opPos, scope);
      case 'call':
        return this.namedCall(node, scope);
    }
  }

  private identifier(name: string, pos: number, scope: Scope): Typed {
    for (let s = scope; s !== null; s = s.next) {
      if (s.name === name) return { kind: 'var', name, type: s.type };
    }
    if (name === 'current' || name === 'index') {
      throw new FormulaError(`"${name}" can only be used inside list functions such as map() or filter()`, pos);
    }
    const constant = CONSTANTS.get(name);
    if (constant !== undefined) return { kind: 'const', value: constant, type: T.number };
    if (FUNCTIONS.has(name) || name === 'prop' || name === 'let' || name === 'lets') {
      throw new FormulaError(`"${name}" is a function; call it as ${name}()`, pos);
    }
    if (this.findProperty(this.env.properties, name) !== undefined) {
      throw new FormulaError(`Unknown name "${name}"; use prop("${name}") to read a property`, pos);
    }
    throw new FormulaError(`Unknown name "${name}"`, pos);
  }

  private list(items: Node[], scope: Scope): Typed {
    let of: Ty = T.empty;
    const typed = items.map((item) => {
      const t = this.check(item, scope);
      const merged = unify(of, t.type);
      if (merged === null) {
        throw new FormulaError(`List items must have the same type, but got ${typeName(of)} and ${typeName(t.type)}`, item.pos);
      }
      of = merged;
      return t;
    });
    return { kind: 'list', items: typed, type: T.list(of) };
  }

  private namedCall(node: Extract<Node, { kind: 'call' }>, scope: Scope): Typed {
    const { name, args, namePos: pos } = node;
    if (name === 'prop') return this.prop(node, scope);
    if (name === 'let' || name === 'lets') {
      if (node.method) throw new FormulaError(`"${name}" cannot be called as a method`, pos);
      return this.letCall(name, args, pos, scope);
    }
    const fn = FUNCTIONS.get(name);
    if (fn === undefined) throw new FormulaError(`Unknown function "${name}"`, pos);
    if (CLOCK_FUNCTIONS.has(fn.name)) this.readsClock = true;
    return this.call(fn, name, args, pos, scope);
  }

  private call(fn: FunctionDef, display: string, args: Node[], pos: number, scope: Scope): Typed {
    checkArity(fn, display, args.length, pos);
    const typed: Typed[] = [];
    for (let i = 0; i < args.length; i++) {
      if (fn.callbackArgs?.includes(i) === true) {
        const listType = typed[0].type;
        if (listType.kind !== 'list' && listType.kind !== 'empty') {
          throw new FormulaError(`Expected list but got ${typeName(listType)} in "${display}"`, args[0].pos);
        }
        const inner: Scope = { name: 'index', type: T.number, next: { name: 'current', type: elementType(listType), next: scope } };
        typed.push(this.check(args[i], inner));
      } else {
        typed.push(this.check(args[i], scope));
      }
    }
    const argTypes = typed.map((t) => t.type);
    const c: CheckCall = {
      display,
      types: argTypes,
      literal(i: number): FormulaValue | undefined {
        const t = typed[i];
        return t !== undefined && t.kind === 'const' ? t.value : undefined;
      },
      expect(i: number, spec: TypeSpec): Ty {
        const t = argTypes[i];
        if (!spec.accepts(t)) {
          throw new FormulaError(`Expected ${spec.describe} but got ${typeName(t)} in "${display}"`, args[i].pos);
        }
        return t;
      },
      fail(i: number, message: string): never {
        throw new FormulaError(message, i >= 0 && i < args.length ? args[i].pos : pos);
      },
    };
    const type = fn.check(c);
    return { kind: 'call', fn, args: typed, argTypes, type };
  }

  private prop(node: Extract<Node, { kind: 'call' }>, scope: Scope): Typed {
    const { args, namePos: pos } = node;
    const onPage = args.length === 2;
    if (args.length !== 1 && args.length !== 2) {
      throw new FormulaError(`"prop" expects a property name, like prop("Name")`, pos);
    }
    const nameNode = args[args.length - 1];
    if (nameNode.kind !== 'string') {
      throw new FormulaError(`"prop" expects the property name as a string literal, like prop("Name")`, nameNode.pos);
    }
    if (!onPage) {
      const info = this.findProperty(this.env.properties, nameNode.value);
      if (info === undefined) throw new FormulaError(`Unknown property "${nameNode.value}"`, nameNode.pos);
      if (!this.dependencies.includes(info.name)) this.dependencies.push(info.name);
      this.references.push({ start: nameNode.pos, end: nameNode.end, literal: nameNode.value, id: info.id, relation: null });
      return { kind: 'prop', name: info.name, type: tagRelation(toTy(info.type), info.name) };
    }
    const page = this.check(args[0], scope);
    if (page.type.kind !== 'page') {
      throw new FormulaError(`Expected page but got ${typeName(page.type)} in "prop"`, args[0].pos);
    }
    const relation = page.type.relation;
    const schema = relation === undefined ? undefined : this.env.relatedSchemas?.(relation);
    if (relation === undefined || schema === undefined) {
      throw new FormulaError(
        relation === undefined
          ? 'Cannot read properties of this page because its data source is unknown'
          : `Properties of pages related through "${relation}" are not available`,
        args[0].pos,
      );
    }
    const info = this.findProperty(schema, nameNode.value);
    if (info === undefined) {
      throw new FormulaError(`Unknown property "${nameNode.value}" on pages related through "${relation}"`, nameNode.pos);
    }
    this.references.push({ start: nameNode.pos, end: nameNode.end, literal: nameNode.value, id: info.id, relation });
    const type = tagRelation(toTy(info.type), info.name);
    const nameConst: Typed = { kind: 'const', value: info.name, type };
    return { kind: 'call', fn: pageProperty, args: [page, nameConst], argTypes: [page.type, type], type };
  }

  private letCall(name: 'let' | 'lets', args: Node[], pos: number, scope: Scope): Typed {
    if (name === 'let' ? args.length !== 3 : args.length < 3 || args.length % 2 === 0) {
      throw new FormulaError(
        name === 'let'
          ? `"let" expects 3 arguments (name, value, expression) but got ${args.length}`
          : `"lets" expects name/value pairs followed by an expression, like lets(a, 1, b, 2, a + b)`,
        pos,
      );
    }
    const bindings: { name: string; value: Typed }[] = [];
    let inner = scope;
    for (let i = 0; i + 1 < args.length; i += 2) {
      const target = args[i];
      if (target.kind !== 'ident') {
        throw new FormulaError(`Expected a variable name in "${name}"`, target.pos);
      }
      if (RESERVED.has(target.name)) {
        throw new FormulaError(`"${target.name}" cannot be used as a variable name`, target.pos);
      }
      const value = this.check(args[i + 1], inner);
      bindings.push({ name: target.name, value });
      inner = { name: target.name, type: value.type, next: inner };
    }
    const body = this.check(args[args.length - 1], inner);
    return { kind: 'let', bindings, body, type: body.type };
  }

  private findProperty(list: readonly FormulaPropertyInfo[], key: string): FormulaPropertyInfo | undefined {
    return list.find((p) => p.name === key) ?? list.find((p) => p.id === key);
  }
}

function checkArity(fn: FunctionDef, display: string, count: number, pos: number): void {
  if (count >= fn.minArgs && count <= fn.maxArgs) return;
  const plural = (n: number): string => `${n} argument${n === 1 ? '' : 's'}`;
  let expected: string;
  if (fn.maxArgs === Number.POSITIVE_INFINITY) expected = `at least ${plural(fn.minArgs)}`;
  else if (fn.minArgs === fn.maxArgs) expected = plural(fn.minArgs);
  else expected = `${fn.minArgs} to ${plural(fn.maxArgs)}`;
  throw new FormulaError(`"${display}" expects ${expected} but got ${count}`, pos);
}
