import type { WriteStamp } from './writeStamp.js';

/**
 * Answers of reads kept for the same read asked again with nothing written since: an integration
 * that polls a database for changes asks the same query over and over, and each answer costs
 * milliseconds of presenting pages (docs/benchmarks.md "Kept query answers"). An answer is used
 * again only while the store's write stamp (writeStamp.ts) reads as it did before the read ran and
 * after it ended, so it is exactly what running the read again would answer: any write, by any
 * process or instance, on any object, makes every kept answer stale. What a key holds (who asks,
 * and what) is the caller's to say: src/http/keptAnswers.ts for data-source queries.
 */
export class AnswerCache {
  private readonly entries = new Map<string, { body: string | Buffer; bytes: number }>();
  private bytes = 0;
  /**
   * The stamp the kept answers were read under. A stamp never reads as an earlier one again, so
   * once it has moved every answer kept before is stale for good: they are all dropped then, and
   * the memory held is that of answers still usable.
   */
  private stamp: string | null = null;
  /** Answers sent from those kept, and looked up but run: for /metrics. */
  readonly stats = { kept: 0, run: 0 };

  constructor(
    private readonly writeStamp: WriteStamp,
    /** 0 keeps nothing. */
    private readonly maxBytes: number,
  ) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** Bytes of the answers kept now. */
  get heldBytes(): number {
    return this.bytes;
  }

  /**
   * The answer kept under `key` if nothing was written since, or null and `keep`: given the
   * answer as sent, it is kept if the stamp still reads as it did at this lookup.
   */
  async lookup(key: string): Promise<{ body: string | Buffer | null; keep: (body: string | Buffer) => void }> {
    const stamp = await this.writeStamp();
    if (stamp !== this.stamp) this.forgetAll(stamp);
    const found = this.entries.get(key);
    if (found) {
      // Most recently used last: eviction takes the first.
      this.drop(key);
      this.entries.set(key, found);
      this.bytes += found.bytes;
      this.stats.kept += 1;
      return { body: found.body, keep: () => undefined };
    }
    this.stats.run += 1;
    return { body: null, keep: (body) => void this.keepIfUnchanged(key, stamp, body) };
  }

  private async keepIfUnchanged(key: string, stamp: string, body: string | Buffer): Promise<void> {
    const bytes = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    // One answer may not push out most of the others.
    if (bytes > this.maxBytes / 8) return;
    let now: string;
    try {
      now = await this.writeStamp();
    } catch {
      // The store went away meanwhile: nothing is kept, and the request has been answered.
      return;
    }
    // Something was written while the query ran (its answer may hold some of it, or not).
    if (now !== stamp) return;
    if (now !== this.stamp) this.forgetAll(now);
    this.drop(key);
    while (this.bytes + bytes > this.maxBytes) this.drop(this.entries.keys().next().value as string);
    this.entries.set(key, { body, bytes });
    this.bytes += bytes;
  }

  private forgetAll(stamp: string): void {
    this.entries.clear();
    this.bytes = 0;
    this.stamp = stamp;
  }

  private drop(key: string): void {
    const found = this.entries.get(key);
    if (!found) return;
    this.entries.delete(key);
    this.bytes -= found.bytes;
  }
}
