import { normalizeRichText, plainText, type RichTextItem } from '../../richText.js';
import type { RichTextItemInput } from '../../../schemas/richText.js';
import { plainText as atomText, text } from '../../rollups/rollupAtoms.js';
import { noConfig, textOrNull, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';
import { textConditions } from '../../query/conditions/text.js';

/** title and rich_text: rich text, a list of references that pages cut at 25 (mentions count). */
const richTextType: PropertyTypeDefinition = {
  normalize: (ctx, _property, member) => normalizeRichText(member as RichTextItemInput[], ctx.resolver),
  multiValued: false,
  optionValues: false,
  columns(member, into) {
    into.text_value = textOrNull(plainText(member as RichTextItem[]));
  },
  emptyValue: () => [],
  formulaType: () => T.string,
  toFormulaValue: (member) => plainText(member as RichTextItem[]) || null,
  atoms: (member) => text(atomText(member)),
  configure: noConfig,
  presentConfig: noConfig,
  page: { fromRow: null, referenceList: true, hasMore: false },
  filters: textConditions,
};

export const title: PropertyTypeDefinition = richTextType;
export const richText: PropertyTypeDefinition = richTextType;
