import type { JobBell } from '../context.js';
import type { WakeChannel } from '../storage/wakeChannel.js';

/**
 * Rings this process's workers when a job is enqueued here, so they take it at once instead of at
 * their next poll; with a channel (src/storage/wakeChannel.ts, ./processWakeChannel.ts) the other
 * processes on the store are rung too. Jobs enqueued where no channel reaches are found by polling.
 */
export class LocalJobBell implements JobBell {
  private readonly listeners = new Set<() => void>();
  private receiving = false;

  constructor(
    private readonly channel: WakeChannel | null = null,
    private readonly problem: (error: Error) => void = () => undefined,
  ) {}

  wake(): void {
    this.ring();
    this.channel?.send();
  }

  listen(listener: () => void): () => void {
    // Only a process that runs workers holds the channel's listening end (a PostgreSQL connection).
    if (this.channel && !this.receiving) {
      this.receiving = true;
      this.channel.receive(() => this.ring(), this.problem);
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    await this.channel?.close();
  }

  private ring(): void {
    for (const listener of this.listeners) listener();
  }
}
