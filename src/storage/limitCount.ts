import { sql, SqliteQueryCompiler, ValueNode, type LimitNode, type OffsetNode, type OperationNode, type RawBuilder } from 'kysely';

/**
 * A LIMIT or OFFSET count as SQL text: a whole number the server computed (a page size, a cap),
 * never text from a request; anything else is refused here rather than written into a statement.
 */
export function limitCountText(count: unknown): string {
  if (!isWholeCount(count)) throw new Error(`a LIMIT or OFFSET count must be a whole number, not ${String(count)}`);
  return String(count);
}

const isWholeCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** SQLite's Dialect.limitCount: the count as a literal. */
export function literalLimitCount(count: number): RawBuilder<unknown> {
  return sql.raw(limitCountText(count));
}

/** The count a builder's LIMIT or OFFSET holds when it is a whole number, else null (it stays a parameter). */
const wholeCount = (node: OperationNode): number | null => (ValueNode.is(node) && isWholeCount(node.value) ? node.value : null);

/**
 * SQLite's query compiler, writing a query builder's `.limit(n)` and `.offset(n)` as literals
 * (Dialect.limitCount says why); a count that is not a whole number stays a parameter.
 */
export class LiteralLimitQueryCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    const count = wholeCount(node.limit);
    if (count === null) super.visitLimit(node);
    else this.append(`limit ${count}`);
  }

  protected override visitOffset(node: OffsetNode): void {
    const count = wholeCount(node.offset);
    if (count === null) super.visitOffset(node);
    else this.append(`offset ${count}`);
  }
}
