/**
 * What every answer to a mutated body must look like (issue 3): a success, or a 4xx with the
 * spec's error body; never a 5xx; and a validation_error names the field the mutation touched.
 */
import { ERROR_REGISTRY } from '../../src/errors/registry.js';
import { pathText as fieldText, touchedPaths, type Mutation, type Path } from './mutations.js';

type Json = any;

/**
 * Any field name in the service's notation: `body.children[0].paragraph`, `path.page_id`, `query.x`, `body[""]` (a key that is empty or
 * starts with `[`, quoted), `body[0][0]` (inside a body that is an array: the depth limit names where it was crossed, issue 29).
 */
export const FIELD = /(body|path|query)(\.[A-Za-z0-9_[\].-]*|\["|\[\d)/;

/**
 * How the message relates to the mutation, when the answer is acceptable: it names the mutated
 * branch (`same`), only its top-level key (`top`), the body itself (`root`), or a field whose
 * meaning depends on the mutated one (`related`); otherwise the answer is a problem.
 */
export type Branch = 'same' | 'top' | 'root' | 'related';
export type Verdict = { ok: true; branch: Branch | null } | { ok: false; problem: string };

/**
 * Top-level fields whose value decides what another field may hold: without `parent` (or with
 * another one) a page is created elsewhere, where other properties exist.
 */
const RELATED = new Map<string, string[]>([['parent', ['properties']]]);

const BODY_LIMIT = 500 * 1024;

/**
 * Does `message` name the mutated field? The top-level key of the mutated path (or of the key
 * inserted at the root) must be named as `body.<key>`; deeper or shallower parts of the same
 * branch are fine. A message about a property value may name the property instead.
 */
export function namesMutatedField(message: string, mutations: readonly Mutation[]): Verdict {
  // The field a message names comes first, after the "body failed validation: " prefix.
  const rest = message.replace(/^(body|path|query) failed validation: /, '');
  const field = rest.match(/^body((?:\.[^\s.[]+|\[\d+\]|\["(?:[^"\\]|\\.)*"\])*)/);
  const named = field?.[0];
  const startsWith = (text: string, prefix: string) => text.startsWith(prefix) && /^($|[.[\s,])/.test(text.slice(prefix.length));
  let best: Branch | null = null;
  for (const path of mutations.flatMap(touchedPaths)) {
    if (path.length === 0) return { ok: true, branch: 'root' };
    const top = String(path[0]);
    const mentionsTop = startsWith(rest, fieldText([top]));
    const mentionsProperty = path[0] === 'properties' && path.length > 1 && namesProperty(message, String(path[1]));
    if (!mentionsTop && !mentionsProperty) {
      if ((RELATED.get(top) ?? []).some((t) => startsWith(rest, fieldText([t])))) best ??= 'related';
      continue;
    }
    const full = fieldText(path);
    // The message names the mutated field, something inside it, or something it is inside.
    if (startsWith(rest, full) || (named !== undefined && startsWith(full, named))) return { ok: true, branch: 'same' };
    best = 'top';
  }
  if (best) return { ok: true, branch: best };
  return { ok: false, problem: `names ${named ?? 'no field of the body'}, not the mutated field` };
}

/** A property named by name: as a path segment, quoted, or as the subject of the message. */
function namesProperty(message: string, name: string): boolean {
  return includesField(message, `.${name}`) || message.includes(`"${name}"`) || message.startsWith(`${name} `);
}

function includesField(message: string, field: string): boolean {
  let from = 0;
  for (;;) {
    const i = message.indexOf(field, from);
    if (i < 0) return false;
    const next = message[i + field.length];
    if (next === undefined || next === '.' || next === '[' || next === ' ' || next === ',') return true;
    from = i + 1;
  }
}

export interface Answer {
  status: number;
  body: Json;
}

/** The verdict on one answer to a body carrying `mutations`. */
export function judge(answer: Answer, mutations: readonly Mutation[], sentBytes: number): Verdict {
  const { status, body } = answer;
  if (status === 200) return { ok: true, branch: null };
  if (status >= 500) return { ok: false, problem: `status ${status}` };
  if (status < 400) return { ok: false, problem: `status ${status}` };
  const shapeOk =
    body &&
    typeof body === 'object' &&
    body.object === 'error' &&
    body.status === status &&
    typeof body.message === 'string' &&
    typeof body.code === 'string' &&
    body.code in ERROR_REGISTRY &&
    ERROR_REGISTRY[body.code as keyof typeof ERROR_REGISTRY].status === status;
  if (!shapeOk) return { ok: false, problem: `error body not in the spec's shape` };
  if (body.code !== 'validation_error') return { ok: true, branch: null };
  const message: string = body.message;
  // Only the size limit speaks of the body as a whole.
  if (sentBytes > BODY_LIMIT && /\bbody\b/.test(message)) return { ok: true, branch: 'root' };
  // A body that is not an object at all is named as `body`.
  if (mutations.some((m) => m.path.length === 0 && m.op === 'replace') && /^body failed validation: body /.test(message)) return { ok: true, branch: 'root' };
  if (!FIELD.test(message)) return { ok: false, problem: 'validation_error that names no field' };
  return namesMutatedField(message, mutations);
}

export type { Path };
