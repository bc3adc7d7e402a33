import { S, T, type Ty } from '../typeSystem.js';
import type { FormulaValue, PersonValue } from '../types.js';
import { isPage, isPerson } from '../values.js';
import { simple, type FunctionDef } from './functionDef.js';

/** name()/email() read one person, or each person of a people list. */
function personField(name: 'name' | 'email'): FunctionDef {
  const read = (v: FormulaValue): FormulaValue => (isPerson(v) ? v[name] : null);
  return simple(
    name,
    [S.personOrPeople],
    (c): Ty => (c.types[0].kind === 'list' ? T.list(T.string) : T.string),
    ([v]) => (Array.isArray(v) ? v.filter((p): p is PersonValue => isPerson(p)).map((p) => p[name] ?? '') : read(v)),
  );
}

export const nameFn = personField('name');
export const emailFn = personField('email');

/** id() is the current page's id; id(page) or id(person) reads that value's id. */
export const idFn = simple(
  'id',
  [S.pageOrPerson],
  T.string,
  (args, c) => {
    if (args.length === 0) return c.rt.pageId;
    const v = args[0];
    return isPage(v) || isPerson(v) ? v.id : null;
  },
  { optional: 1 },
);
