import { Injectable } from '@nestjs/common';

export type ReadinessCheck = () => Promise<void>;

export interface ReadinessReport {
  ready: boolean;
  /** `advisory`: reported, but the service is ready without it (see `registerAdvisory`). */
  checks: Record<string, { status: 'up' | 'down'; error?: string; advisory?: true }>;
}

const CHECK_TIMEOUT_MS = 3000;

function withTimeout(check: ReadinessCheck, name: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${name} did not answer within ${CHECK_TIMEOUT_MS} ms`)),
      CHECK_TIMEOUT_MS,
    );
  });
  return Promise.race([check(), timeout]).finally(() => clearTimeout(timer));
}

/**
 * The dependencies a service needs before it takes traffic (database, Redis, …). Modules register a
 * check at start-up; `/readyz` runs them all in parallel, each under a timeout. A service that is
 * shutting down reports itself not ready so load balancers stop sending to it.
 */
@Injectable()
export class ReadinessRegistry {
  private readonly checks = new Map<string, ReadinessCheck>();
  private readonly advisory = new Set<string>();
  private shuttingDown = false;

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  /**
   * A check shown in `/readyz`'s detail that does not make the service unready: a peer whose outage must not take
   * every instance out of the load balancer (e.g. the relay's serviceUrl probe).
   */
  registerAdvisory(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
    this.advisory.add(name);
  }

  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  async report(): Promise<ReadinessReport> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        const advisory = this.advisory.has(name) ? { advisory: true as const } : {};
        try {
          await withTimeout(check, name);
          return [name, { status: 'up' as const, ...advisory }] as const;
        } catch (error) {
          return [
            name,
            {
              status: 'down' as const,
              error: error instanceof Error ? error.message : String(error),
              ...advisory,
            },
          ] as const;
        }
      }),
    );
    const checks: ReadinessReport['checks'] = Object.fromEntries(entries) as ReadinessReport['checks'];
    if (this.shuttingDown) checks.lifecycle = { status: 'down', error: 'shutting down' };
    return {
      ready: Object.values(checks).every((check) => check.status === 'up' || check.advisory),
      checks,
    };
  }
}
