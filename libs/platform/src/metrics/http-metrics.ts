import { type NextFunction, type Request, type Response } from 'express';
import { Counter, Histogram, type Registry } from 'prom-client';

const UNMATCHED_ROUTE = '<unmatched>';

/** Request counts and latency by method, route pattern (never the raw URL: bounded cardinality) and status. */
export class HttpMetrics {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route' | 'status'>;

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests served, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency in seconds, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
  }

  /** The counter and histogram children of each label set seen, so a request does not hash its labels twice. */
  private readonly series = new Map<
    string,
    { requests: { inc(): void }; duration: { observe(value: number): void } }
  >();

  /** Counts a finished request: its method, route pattern (`<unmatched>` without one), status and start. */
  observe(method: string, route: string | undefined, statusCode: number, started: bigint): void {
    const status = String(statusCode);
    const label = route ?? UNMATCHED_ROUTE;
    const key = `${method} ${status} ${label}`;
    let series = this.series.get(key);
    if (!series) {
      const labels = { method, route: label, status };
      series = { requests: this.requests.labels(labels), duration: this.duration.labels(labels) };
      this.series.set(key, series);
    }
    series.requests.inc();
    series.duration.observe(Number(process.hrtime.bigint() - started) / 1e9);
  }

  /** Express middleware; install before routing. */
  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    response.once('finish', () => {
      const path = (request.route as { path?: string } | undefined)?.path;
      this.observe(request.method, typeof path === 'string' ? path : undefined, response.statusCode, started);
    });
    next();
  };
}
