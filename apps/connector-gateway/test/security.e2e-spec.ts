/**
 * Security review (issue 15): every probe of the review replayed against connector-gateway, so none can come back.
 * Each `describe` names its finding.
 */
import { slowHeaders, trickleRequest } from '@fieldops/platform';
import { type GatewayFixture, startGatewayFixture } from './support/gateway';

describe('security review: connector-gateway', () => {
  let fixture: GatewayFixture;

  beforeAll(async () => {
    fixture = await startGatewayFixture({ HTTP_HEADERS_TIMEOUT_MS: '1000' });
  });
  afterAll(() => fixture.gateway.close());

  describe('finding 6: security headers', () => {
    it('sends nosniff, frame and referrer policies and a CSP on answers and errors', async () => {
      for (const response of [
        await fetch(`${fixture.gateway.url}/v1/.well-known/openidconfiguration`),
        await fetch(`${fixture.gateway.url}/v3/conversations`, { method: 'POST' }),
      ]) {
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(response.headers.get('x-frame-options')).toBe('DENY');
        expect(response.headers.get('referrer-policy')).toBe('no-referrer');
        expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
        expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
        expect(response.headers.get('strict-transport-security')).toBeNull();
      }
    });

    it('adds HSTS when the public URL is https', async () => {
      const https = await startGatewayFixture({ CONNECTOR_PUBLIC_URL: 'https://connector.example.com' });
      try {
        const response = await fetch(`${https.gateway.url}/healthz`);
        expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000');
      } finally {
        await https.gateway.close();
      }
    });
  });

  describe('finding 10: slow headers', () => {
    it('cuts off a client that trickles its headers after the headers deadline (408)', async () => {
      const chunks = slowHeaders('POST /v3/conversations HTTP/1.1');
      const slow = await trickleRequest(fixture.gateway.port, chunks, 200, 8_000);
      expect(slow.closedAfterMs).toBeDefined();
      expect(slow.closedAfterMs).toBeLessThan(3_000);
      expect(slow.received).toMatch(/^HTTP\/1\.1 408/);
    }, 15_000);
  });
});
