import { createLogger } from '@fieldops/platform';
import { loadPlatformConfig } from '@fieldops/platform-config';
import {
  EXAMPLE_PLATFORM_CONFIG,
  selectApps,
  startInProcessPlatform,
  withPlatformConfigDefault,
} from '../src';

const logger = createLogger({ service: 'all-in-one-security-test', level: 'silent' });

/** Probes of the security review (issue 22), replayed against what `npm start` runs so none can come back. */
describe('issue 22, item 5: npm start has no published secret', () => {
  it("answers the example file's published Direct Line secret 403, and its own generated one 200", async () => {
    // As `npm start` runs outside tests (no NODE_ENV=test): the apps refuse published secrets.
    const platform = await startInProcessPlatform(
      {
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        RELAY_GATEWAY_PORT: '0',
        CONNECTOR_GATEWAY_PORT: '0',
      },
      logger,
      selectApps(['--apps', 'relay,connector'], undefined),
    );
    try {
      const relay = platform.services.find((service) => service.service === 'relay-gateway')?.url ?? '';
      const generate = (secret: string): Promise<Response> =>
        fetch(`${relay}/v3/directline/tokens/generate`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ user: { id: 'dl_supervisor' } }),
        });
      expect((await generate('demo-directline-secret-0001')).status).toBe(403);
      expect((await generate('demo-directline-secret-0002')).status).toBe(403);
      const [own] =
        loadPlatformConfig(EXAMPLE_PLATFORM_CONFIG, { environment: withPlatformConfigDefault({}) }).bots[0]
          ?.directLine?.secrets ?? [];
      expect(own).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect((await generate(own ?? '')).status).toBe(200);
    } finally {
      await platform.close();
    }
  });
});
