import { type IncomingMessage, type ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { accessLogLevel, logAccess, redactUrl } from './request-logging.middleware';

describe('accessLogLevel', () => {
  it('is error for 5xx, warn for 4xx and info for the rest', () => {
    expect(accessLogLevel(503)).toBe('error');
    expect(accessLogLevel(404)).toBe('warn');
    expect(accessLogLevel(401)).toBe('warn');
    expect(accessLogLevel(200)).toBe('info');
  });

  it('is info for a 401 challenge to a request that sent no credentials', () => {
    expect(accessLogLevel(401, false)).toBe('info');
    expect(accessLogLevel(403, false)).toBe('warn');
  });

  it('applies to the access line: an unauthenticated probe answered 401 is info, a refused token warn', () => {
    const levels: string[] = [];
    const logger = pino(
      { formatters: { level: (label) => ({ level: label }) } },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          levels.push((JSON.parse(chunk.toString()) as { level: string }).level);
          done();
        },
      }),
    );
    const response = { writableFinished: true, statusCode: 401 } as ServerResponse;
    const probe = { method: 'GET', headers: {}, socket: {} } as IncomingMessage;
    const refused = { method: 'GET', headers: { authorization: 'Bearer x' }, socket: {} } as IncomingMessage;
    logAccess(
      logger,
      probe,
      response,
      'r1',
      '/v3/conversations/service-url-probe/members',
      performance.now(),
    );
    logAccess(logger, refused, response, 'r2', '/v3/conversations/c1/members', performance.now());
    expect(levels).toEqual(['info', 'warn']);
  });
});

describe('redactUrl', () => {
  it('hides the values of credential query parameters, whatever their case, and keeps the rest', () => {
    expect(redactUrl('/sts/v1.0/issueToken?Subscription-Key=abc123')).toBe(
      '/sts/v1.0/issueToken?Subscription-Key=[redacted]',
    );
    expect(
      redactUrl('/translate?api-version=3.0&subscription-key=k&Subscription-Region=chinaeast2&to=de'),
    ).toBe('/translate?api-version=3.0&subscription-key=[redacted]&Subscription-Region=chinaeast2&to=de');
    expect(redactUrl('/x?access_token=t&token=u&client_secret=s#frag')).toBe(
      '/x?access_token=[redacted]&token=[redacted]&client_secret=[redacted]#frag',
    );
    expect(redactUrl('/v3/conversations?tokenish=1')).toBe('/v3/conversations?tokenish=1');
  });

  it("hides Direct Line's stream and attachment tokens (t) and other credential parameters", () => {
    expect(redactUrl('/v3/directline/conversations/c1/stream?watermark=-&t=eyJhbGc.x.y')).toBe(
      '/v3/directline/conversations/c1/stream?watermark=-&t=[redacted]',
    );
    expect(redactUrl('/v3/attachments/a1/views/original?T=abc')).toBe(
      '/v3/attachments/a1/views/original?T=[redacted]',
    );
    expect(redactUrl('/cb?code=c&state=s&password=p&sig=x&api-key=k')).toBe(
      '/cb?code=[redacted]&state=s&password=[redacted]&sig=[redacted]&api-key=[redacted]',
    );
    expect(redactUrl('/x?at=1&tt=2')).toBe('/x?at=1&tt=2');
  });
});
