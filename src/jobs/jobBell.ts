import type { JobBell } from '../context.js';

/**
 * Rings this process's workers when a job is enqueued here, so they take it at once instead of at
 * their next poll (jobs enqueued by another instance are found by polling).
 */
export class LocalJobBell implements JobBell {
  private readonly listeners = new Set<() => void>();

  wake(): void {
    for (const listener of this.listeners) listener();
  }

  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
