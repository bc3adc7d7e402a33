import type { EvalCall, Runtime } from './functions/functionDef.js';
import { MAX_EVALUATION_STEPS } from './limits.js';
import type { Typed } from './typedTree.js';
import type { FormulaContext, FormulaValue } from './types.js';
import { clampList, conformToType, num } from './values.js';

type Env = { name: string; value: FormulaValue; next: Env } | null;

class BudgetExceeded extends Error {}

function runtimeFor(ctx: FormulaContext): Runtime {
  let steps = 0;
  return {
    now: ctx.now,
    pageId: ctx.pageId,
    getProperty: (name) => ctx.getProperty(name),
    step() {
      steps++;
      if (steps > MAX_EVALUATION_STEPS) throw new BudgetExceeded('Formula evaluation budget exceeded');
    },
  };
}

/**
 * Evaluates a checked formula. Never throws: any runtime failure (including a
 * throwing getProperty, the step budget, or stack exhaustion) yields empty.
 */
export function evaluate(tree: Typed, ctx: FormulaContext): FormulaValue {
  try {
    return finish(evalNode(tree, null, runtimeFor(ctx)));
  } catch {
    return null;
  }
}

function finish(v: FormulaValue): FormulaValue {
  if (typeof v === 'number') return num(v);
  return v === undefined ? null : v;
}

function evalNode(node: Typed, env: Env, rt: Runtime): FormulaValue {
  rt.step();
  switch (node.kind) {
    case 'const':
      return node.value;
    case 'prop':
      return conformToType(rt.getProperty(node.name), node.type);
    case 'var': {
      for (let e = env; e !== null; e = e.next) if (e.name === node.name) return e.value;
      return null;
    }
    case 'list':
      return clampList(node.items.map((item) => evalNode(item, env, rt)));
    case 'let': {
      let inner = env;
      for (const b of node.bindings) inner = { name: b.name, value: evalNode(b.value, inner, rt), next: inner };
      return evalNode(node.body, inner, rt);
    }
    case 'call': {
      const { args } = node;
      const call: EvalCall = {
        count: args.length,
        rt,
        type: node.type,
        argTypes: node.argTypes,
        arg: (i) => evalNode(args[i], env, rt),
        argWith: (i, current, index) => evalNode(args[i], { name: 'index', value: index, next: { name: 'current', value: current, next: env } }, rt),
      };
      const result = node.fn.evaluate(call);
      return result === undefined ? null : result;
    }
  }
}
