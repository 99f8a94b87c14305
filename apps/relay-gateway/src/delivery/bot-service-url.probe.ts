import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type Logger, LOGGER, ReadinessRegistry } from '@fieldops/platform';
import { RelayGatewayEnvironment } from '../config/relay-gateway.environment';

const PROBE_TIMEOUT_MS = 2000;
/** At start-up the connector may still be starting (separate processes): retry this long before warning. */
const START_UP_GRACE_MS = 30_000;
const RETRY_INTERVAL_MS = 1000;

/**
 * Whether the `serviceUrl` stamped on activities answers as a Bot Connector: bots reply there, so a wrong one makes
 * every answer vanish with nothing logged. A connector answers an unauthenticated `GET v3/conversations/{id}/members` with 401 and
 * a Bot Framework error envelope (`{"error":{"code":…}}`), which is what a bot without a token would see.
 */
export async function probeBotServiceUrl(serviceUrl: string): Promise<void> {
  const target = new URL('v3/conversations/service-url-probe/members', serviceUrl);
  let response: Response;
  try {
    response = await fetch(target, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new Error(`${target.href} cannot be reached (${cause})`, { cause: error });
  }
  const body: unknown = await response.json().catch(() => undefined);
  const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
  if (response.status !== 401 || typeof code !== 'string') {
    throw new Error(`${target.href} answered ${response.status} without a Bot Connector error envelope`);
  }
}

/** Runs the probe at start-up (one warning naming both settings) and as an advisory `/readyz` check. */
@Injectable()
export class BotServiceUrlProbe implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** How long start-up failures are retried before the warning (the connector may start after the relay). */
  graceMs = START_UP_GRACE_MS;

  constructor(
    private readonly environment: RelayGatewayEnvironment,
    private readonly readiness: ReadinessRegistry,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const serviceUrl = this.environment.RELAY_BOT_SERVICE_URL;
    this.readiness.registerAdvisory('botServiceUrl', () => probeBotServiceUrl(serviceUrl));
    const giveUpAt = Date.now() + this.graceMs;
    const attempt = (): void => {
      probeBotServiceUrl(serviceUrl).then(
        () => this.logger.info({ serviceUrl }, 'the bots’ serviceUrl answers as a Bot Connector'),
        (error: unknown) => {
          if (this.stopped) return;
          if (Date.now() < giveUpAt) {
            this.timer = setTimeout(attempt, RETRY_INTERVAL_MS).unref();
            return;
          }
          this.logger.warn(
            { serviceUrl, reason: (error as Error).message },
            'RELAY_BOT_SERVICE_URL does not answer as connector-gateway, so bots cannot reply: set it (or ' +
              "CONNECTOR_PUBLIC_URL / CONNECTOR_GATEWAY_PORT, which it follows when unset) to connector-gateway's address",
          );
        },
      );
    };
    attempt();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
