/** A compile-time problem located at a 0-based character offset of the expression. */
export class FormulaError extends Error {
  readonly position: number;

  constructor(message: string, position: number) {
    super(message);
    this.name = 'FormulaError';
    this.position = position;
  }
}
