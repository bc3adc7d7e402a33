/**
 * Rings this process's workers when a job is enqueued here, so they take it at once instead of at
 * their next poll (jobs enqueued by another instance are found by polling).
 */
export class JobBell {
  private readonly listeners = new Set<() => void>();

  wake(): void {
    for (const listener of this.listeners) listener();
  }

  /** Calls `listener` on every wake until the returned function is called. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
