import { type IncomingMessage, type ServerResponse } from 'node:http';
import helmet from 'helmet';
import { API_CONTENT_SECURITY_POLICY, securityHeadersMiddleware } from './security-headers';

/** The headers a middleware sets (and removes) on a response, in order. */
function headersOf(
  middleware: (request: IncomingMessage, response: ServerResponse, next: () => void) => void,
): { set: Record<string, unknown>; removed: string[] } {
  const set: Record<string, unknown> = {};
  const removed: string[] = [];
  const response = {
    setHeader: (name: string, value: unknown) => (set[name.toLowerCase()] = value),
    removeHeader: (name: string) => removed.push(name.toLowerCase()),
  };
  let called = false;
  middleware({} as IncomingMessage, response as unknown as ServerResponse, () => (called = true));
  expect(called).toBe(true);
  return { set, removed };
}

describe('securityHeadersMiddleware', () => {
  it('sets exactly what helmet with the same settings sets (computed once, not per request)', () => {
    for (const publicUrl of [undefined, 'https://relay.example']) {
      const ours = headersOf(securityHeadersMiddleware({ publicUrl }));
      const helmets = headersOf(
        helmet({
          contentSecurityPolicy: { useDefaults: false, directives: API_CONTENT_SECURITY_POLICY },
          crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
          crossOriginResourcePolicy: { policy: 'same-site' },
          referrerPolicy: { policy: 'no-referrer' },
          strictTransportSecurity: publicUrl ? { maxAge: 31_536_000, includeSubDomains: false } : false,
          xFrameOptions: { action: 'deny' },
        }),
      );
      expect(ours).toEqual(helmets);
      expect(ours.set['x-frame-options']).toBe('DENY');
      expect(ours.removed).toContain('x-powered-by');
      expect('strict-transport-security' in ours.set).toBe(publicUrl !== undefined);
    }
  });
});
