import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { RequestDurations } from './requestDurations.js';

/** What the metrics read at scrape time rather than count as they happen. */
export interface MetricSources {
  /** Jobs waiting or running, by kind and state. */
  jobDepth(): Promise<readonly { kind: string; state: string; count: number }[]>;
  /** The PostgreSQL pool's connections; null on SQLite (one connection, no pool). */
  pool(): { total: number; idle: number; waiting: number } | null;
  /** SQLite's write transactions and the group commits that made them durable; null on PostgreSQL. */
  commits(): { transactions: number; commits: number } | null;
  /** Query answers sent from those kept, and answered by running the query (src/storage/answerCache.ts). */
  answers(): { kept: number; run: number };
}

/**
 * Prometheus metrics of this instance (issue 26), served at /metrics. One registry per core, so
 * two servers in one process (tests) count separately.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requestSeconds: RequestDurations;
  private readonly jobSeconds: Histogram<'kind' | 'outcome'>;
  private readonly jobFailures: Counter<'kind'>;

  /**
   * Off (FOLIO_METRICS=0), nothing is observed and nothing sampled in the background: how the
   * request-log-and-metrics bench measures what they cost (bench/instruments/).
   */
  constructor(
    sources: MetricSources,
    readonly enabled = true,
  ) {
    const registers = [this.registry];
    if (enabled) collectDefaultMetrics({ register: this.registry, prefix: 'folio_' });
    this.requestSeconds = new RequestDurations(this.registry);
    this.jobSeconds = new Histogram({
      name: 'folio_job_duration_seconds',
      help: 'Job attempts run by this instance, by kind and outcome (done, failed, retried).',
      labelNames: ['kind', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
      registers,
    });
    this.jobFailures = new Counter({
      name: 'folio_job_failures_total',
      help: 'Jobs that failed for good, by kind.',
      labelNames: ['kind'],
      registers,
    });
    new Gauge({
      name: 'folio_jobs',
      help: 'Jobs queued or running in the store (all instances), by kind and state.',
      labelNames: ['kind', 'state'],
      registers,
      async collect() {
        this.reset();
        for (const row of await sources.jobDepth()) this.set({ kind: row.kind, state: row.state }, row.count);
      },
    });
    new Gauge({
      name: 'folio_store_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting clients); absent on SQLite.',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = sources.pool();
        if (!pool) return;
        this.set({ state: 'total' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
      },
    });
    new Counter({
      name: 'folio_query_answers_total',
      help: 'Data-source query answers, by how they were answered: kept (nothing written since the same query) or run.',
      labelNames: ['answered'],
      registers,
      collect() {
        this.reset();
        const { kept, run } = sources.answers();
        this.inc({ answered: 'kept' }, kept);
        this.inc({ answered: 'run' }, run);
      },
    });
    // Counters read from the driver at scrape time, on SQLite only: their ratio is how many writes one fsync served.
    const commits = sources.commits;
    if (commits() !== null) {
      new Counter({
        name: 'folio_store_write_transactions_total',
        help: 'Write transactions this process ran on SQLite.',
        registers,
        collect() {
          this.reset();
          this.inc(commits()!.transactions);
        },
      });
      new Counter({
        name: 'folio_store_group_commits_total',
        help: 'Commits that made those transactions durable, several at a time under load (one fsync each).',
        registers,
        collect() {
          this.reset();
          this.inc(commits()!.commits);
        },
      });
    }
  }

  observeRequest(route: string, method: string, status: number, seconds: number): void {
    if (!this.enabled) return;
    this.requestSeconds.observe(route, method, status, seconds);
  }

  observeJob(kind: string, outcome: 'done' | 'failed' | 'retried', seconds: number): void {
    if (!this.enabled) return;
    this.jobSeconds.observe({ kind, outcome }, seconds);
    if (outcome === 'failed') this.jobFailures.inc({ kind });
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
