import { BLOCK_TYPE_DEFINITIONS, blockDefinitionOf, blockTypesWhere, isWritableBlockType, type WritableBlockType } from './registry.js';
import type { BlockTypeDefinition } from './types/definition.js';

export { isWritableBlockType };

const typesWhere = (test: (definition: BlockTypeDefinition) => boolean): ReadonlySet<string> => new Set(blockTypesWhere(test));

/** Block types whose member holds `rich_text` (the 2022-02-22 rename applies to these). */
export const RICH_TEXT_BLOCK_TYPES = typesWhere((d) => d.richText);

/** Block types whose source is a link or a hosted file. */
export const MEDIA_BLOCK_TYPES = typesWhere((d) => d.media !== null);

/** Media block types a meeting note may take its recording from. */
export const RECORDING_BLOCK_TYPES = typesWhere((d) => d.media?.recording === true);

/**
 * What may be appended under a parent of each kind (registry `holds` and `livesIn`). Pages take
 * any block except those that only live inside their container; tables hold rows and column
 * lists hold columns only; a type that holds nothing (divider, code, media, …) holds nothing.
 */
export function acceptsChild(parentKind: string, childType: WritableBlockType): boolean {
  const child = BLOCK_TYPE_DEFINITIONS[childType];
  if (parentKind === 'page') return child.livesIn === null;
  switch (blockDefinitionOf(parentKind)?.holds) {
    case 'blocks':
      return child.livesIn === null;
    case 'own':
      return child.livesIn === parentKind;
    default:
      return false;
  }
}
