/**
 * Text as case-insensitive conditions compare it (docs/decisions.md "Text comparisons"): NFC, so a
 * letter typed precomposed or with a combining accent is one text, then JavaScript's full Unicode
 * lower-casing. Stored values are folded at write (`text_folded`) and operands at query time by
 * this same function, which is what makes SQLite and PostgreSQL agree.
 */
export function foldText(text: string): string {
  return text.normalize('NFC').toLowerCase();
}
