import { Writable } from 'node:stream';
import { createLogger, freePort, loadEnvironment, ReadinessRegistry } from '@fieldops/platform';
import { RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { BotServiceUrlProbe, probeBotServiceUrl } from './bot-service-url.probe';

describe('BotServiceUrlProbe', () => {
  it('warns once, naming both settings, and reports an advisory readiness check when nothing answers', async () => {
    const port = await freePort(); // nothing listens there
    const lines: Array<Record<string, unknown>> = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const environment = loadEnvironment(
      RelayGatewayEnvironment,
      { PLATFORM_CONFIG: 'platform.yaml', CONNECTOR_GATEWAY_PORT: String(port) },
      'relay-gateway',
    );
    const readiness = new ReadinessRegistry();
    const probe = new BotServiceUrlProbe(
      environment,
      readiness,
      createLogger({ service: 'relay-gateway', destination }),
    );
    probe.graceMs = 0;
    probe.onApplicationBootstrap();
    await expect(probeBotServiceUrl(environment.RELAY_BOT_SERVICE_URL)).rejects.toThrow(/cannot be reached/);
    for (let waited = 0; lines.length === 0 && waited < 5000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    probe.onApplicationShutdown();
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        serviceUrl: `http://localhost:${port}/`,
        msg: expect.stringMatching(/RELAY_BOT_SERVICE_URL .*CONNECTOR_GATEWAY_PORT/) as unknown,
      }),
    ]);
    const report = await readiness.report();
    expect(report.ready).toBe(true);
    expect(report.checks.botServiceUrl).toMatchObject({ status: 'down', advisory: true });
  });
});
