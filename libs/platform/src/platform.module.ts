import { type BeforeApplicationShutdown, type DynamicModule, Global, Module } from '@nestjs/common';
import { type Logger } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { HealthController } from './health/health.controller';
import { ReadinessRegistry } from './health/readiness.registry';
import { HttpFront } from './http/http-front';
import { HttpMetrics } from './metrics/http-metrics';
import { MetricsController } from './metrics/metrics.controller';
import { MetricsExposure } from './metrics/metrics-exposure';

/** Injection token for the service's pino logger. */
export const LOGGER = Symbol('LOGGER');

export interface PlatformModuleOptions {
  /** The service name: `service` label on metrics and log lines. */
  service: string;
  logger: Logger;
}

class ShutdownReadiness implements BeforeApplicationShutdown {
  constructor(private readonly readiness: ReadinessRegistry) {}
  beforeApplicationShutdown(): void {
    this.readiness.markShuttingDown();
  }
}

/**
 * What every service gets: the logger, `/healthz`, `/readyz` (with a registry modules add their
 * checks to), and `/metrics` from a registry of its own (so several services can share one process).
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot({ service, logger }: PlatformModuleOptions): DynamicModule {
    const registry = new Registry();
    registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: registry });
    const httpMetrics = new HttpMetrics(registry);
    return {
      module: PlatformModule,
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: LOGGER, useValue: logger },
        { provide: Registry, useValue: registry },
        { provide: HttpMetrics, useValue: httpMetrics },
        // The hot routes, answered before Express (startHttpService installs it on the server).
        { provide: HttpFront, useValue: new HttpFront(logger, httpMetrics) },
        // Open on the app port until startHttpService applies METRICS_BEARER_TOKEN / METRICS_PORT.
        { provide: MetricsExposure, useValue: new MetricsExposure() },
        ReadinessRegistry,
        {
          provide: ShutdownReadiness,
          useFactory: (readiness: ReadinessRegistry) => new ShutdownReadiness(readiness),
          inject: [ReadinessRegistry],
        },
      ],
      exports: [LOGGER, Registry, HttpMetrics, HttpFront, MetricsExposure, ReadinessRegistry],
    };
  }
}
