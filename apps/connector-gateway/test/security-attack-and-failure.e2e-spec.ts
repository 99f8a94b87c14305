import { requestWithHost } from '@fieldops/testing';
import { type GatewayFixture, startGatewayFixture } from './support/gateway';

/** GET a path with exactly the given Host header. */
const getWithHost = (base: string, path: string, host: string): Promise<{ status: number; body: string }> =>
  requestWithHost(`${base}${path}`, host);

const BOT_OPENID = '/v1/.well-known/openidconfiguration';
const TENANT_OPENID = '/botframework.com/v2.0/.well-known/openid-configuration';

/** Probes of "trust under attack and failure" (issue 22), replayed against connector-gateway so none can come back. */
describe('connector-gateway under attack and failure', () => {
  describe("item 10: a Host header outside CONNECTOR_ALLOWED_HOSTS never becomes the bots' jwks_uri", () => {
    let local: GatewayFixture;
    let configured: GatewayFixture;
    beforeAll(async () => {
      local = await startGatewayFixture();
      configured = await startGatewayFixture({ CONNECTOR_PUBLIC_URL: 'https://bots.example.com' });
    });
    afterAll(async () => {
      await local?.gateway.close();
      await configured?.gateway.close();
    });

    it.each([BOT_OPENID, TENANT_OPENID])(
      "without CONNECTOR_PUBLIC_URL, %s for a stranger's Host is 400, with no URL on it",
      async (path) => {
        const refused = await getWithHost(local.gateway.url, path, 'attacker.example');
        expect(refused.status).toBe(400);
        expect(refused.body).not.toContain('attacker.example/');
      },
    );

    it('a local name is answered with URLs on it', async () => {
      const port = new URL(local.gateway.url).port;
      const answered = await getWithHost(local.gateway.url, BOT_OPENID, `localhost:${port}`);
      expect(answered.status).toBe(200);
      expect((JSON.parse(answered.body) as { jwks_uri: string }).jwks_uri).toBe(
        `http://localhost:${port}/v1/.well-known/keys`,
      );
    });

    it('with CONNECTOR_PUBLIC_URL the documents name it, whatever Host the request names', async () => {
      const answered = await getWithHost(configured.gateway.url, BOT_OPENID, 'attacker.example');
      expect(answered.status).toBe(200);
      expect((JSON.parse(answered.body) as { jwks_uri: string }).jwks_uri).toBe(
        'https://bots.example.com/v1/.well-known/keys',
      );
    });
  });
});
