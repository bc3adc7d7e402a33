import { Type, type TSchema } from 'typebox';
import { IdString, StrictObject } from '../../../schemas/common.js';
import { normalizeId } from '../../../ids/ids.js';
import { PLAIN, presentFields, type Member, type WritableBlockTypeDefinition } from './definition.js';

const TARGETS = ['page_id', 'database_id', 'comment_id'] as const;
const IdRefOf = <K extends string>(key: K) => StrictObject({ type: Type.Optional(Type.Literal(key)), [key]: IdString } as Record<K | 'type', TSchema>);
const linkToPageMember = Type.Union(TARGETS.map(IdRefOf));

function linkTarget(member: Member): Member {
  for (const key of TARGETS) {
    if (key in member) return { type: key, [key]: normalizeId(String(member[key])) ?? String(member[key]) };
  }
  return {};
}

export const linkToPage: WritableBlockTypeDefinition = {
  ...PLAIN,
  request: {
    create: () => linkToPageMember,
    update: linkToPageMember,
    deepestLevel: 2,
    build: async ({ input, base }) => (TARGETS.some((key) => key in input) ? linkTarget(input) : { ...base }),
  },
  present: presentFields('type', ...TARGETS),
};
