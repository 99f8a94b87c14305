import { redactUrl } from './request-logging.middleware';

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
