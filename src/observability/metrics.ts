import client from 'prom-client';

/**
 * The service's Prometheus metrics, all named searchloop_*. One instance per app, with its own
 * registry, so tests and several apps in one process do not share counters.
 */
export class Metrics {
  readonly registry = new client.Registry();
  readonly httpRequests = new client.Counter({
    name: 'searchloop_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new client.Histogram({
    name: 'searchloop_http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly feedbackItems = new client.Counter({
    name: 'searchloop_feedback_items_total',
    help: 'Feedback items accepted, and rejected by reason',
    labelNames: ['outcome', 'reason'] as const,
    registers: [this.registry],
  });
  readonly exposures = new client.Counter({
    name: 'searchloop_exposures_total',
    help: 'Exposure rows written (first assignments, before de-duplication)',
    registers: [this.registry],
  });
  readonly jobRuns = new client.Counter({
    name: 'searchloop_job_runs_total',
    help: 'Background job runs by job and outcome',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly jobDuration = new client.Histogram({
    name: 'searchloop_job_duration_seconds',
    help: 'Background job run time by job and outcome',
    labelNames: ['job', 'outcome'] as const,
    buckets: [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120, 600],
    registers: [this.registry],
  });

  constructor(poolStats?: () => { total: number; idle: number; waiting: number }) {
    client.collectDefaultMetrics({ register: this.registry, prefix: 'searchloop_' });
    new client.Gauge({
      name: 'searchloop_db_pool_connections',
      help: 'Database pool connections by state (SQLite: one connection)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      // Read at scrape time, so the gauge is never stale.
      collect() {
        const s = poolStats?.() ?? { total: 1, idle: 0, waiting: 0 };
        this.set({ state: 'total' }, s.total);
        this.set({ state: 'idle' }, s.idle);
        this.set({ state: 'waiting' }, s.waiting);
      },
    });
  }

  /**
   * Counts and times one answered request. Each series' label children are kept, so a request
   * costs a map lookup instead of prom-client hashing a label object twice (3 % of the event
   * loop under assign load). Routes are patterns and statuses few, so the map stays small.
   */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      const labels = { method, route, status: String(status) };
      series = { requests: this.httpRequests.labels(labels), duration: this.httpDuration.labels(labels) };
      this.requestSeries.set(key, series);
    }
    series.requests.inc();
    series.duration.observe(seconds);
  }

  private readonly requestSeries = new Map<
    string,
    { requests: ReturnType<Metrics['httpRequests']['labels']>; duration: ReturnType<Metrics['httpDuration']['labels']> }
  >();

  /** Times a job run and counts it by outcome. */
  async observeJob<T>(job: string, run: () => Promise<T>): Promise<T> {
    const end = this.jobDuration.startTimer({ job });
    try {
      const result = await run();
      end({ outcome: 'success' });
      this.jobRuns.inc({ job, outcome: 'success' });
      return result;
    } catch (error) {
      end({ outcome: 'failure' });
      this.jobRuns.inc({ job, outcome: 'failure' });
      throw error;
    }
  }
}
