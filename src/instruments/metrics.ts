import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the metrics read at scrape time rather than count as they happen. */
export interface MetricSources {
  /** Jobs waiting or running, by kind and state. */
  jobDepth(): Promise<readonly { kind: string; state: string; count: number }[]>;
  /** The PostgreSQL pool's connections; null on SQLite (one connection, no pool). */
  pool(): { total: number; idle: number; waiting: number } | null;
}

/**
 * Prometheus metrics of this instance (issue 26), served at /metrics. One registry per core, so
 * two servers in one process (tests) count separately.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requestSeconds: Histogram<'route' | 'method' | 'status'>;
  private readonly jobSeconds: Histogram<'kind' | 'outcome'>;
  private readonly jobFailures: Counter<'kind'>;
  /** The histogram's child per route, method and status: prom-client hashes a label object on every observe otherwise. */
  private readonly requestSeries = new Map<string, { observe(value: number): void }>();

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
    this.requestSeconds = new Histogram({
      name: 'folio_http_request_duration_seconds',
      help: 'Requests answered, by route pattern, method and status, with their duration.',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
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
  }

  observeRequest(route: string, method: string, status: number, seconds: number): void {
    if (!this.enabled) return;
    const key = `${status} ${method} ${route}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      series = this.requestSeconds.labels({ route, method, status: String(status) });
      this.requestSeries.set(key, series);
    }
    series.observe(seconds);
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
