import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { AiCredentialError, AiCredentialProvider } from './ai-credential-provider';

/** A local stand-in for an issueToken / token endpoint (outside this library): counts and answers requests. */
class TokenEndpointDouble {
  readonly requests: Array<{ url: string; key?: string; body: string }> = [];
  validKeys = new Set(['key-one', 'key-two']);
  /** Seconds until the issued tokens expire (their `exp`), from the double's notion of now. */
  now = 1_000_000_000;
  private server!: Server;
  url = '';
  private delayMs = 0;

  async start(): Promise<void> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  slowDown(ms: number): void {
    this.delayMs = ms;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    const key = request.headers['ocp-apim-subscription-key'] as string | undefined;
    this.requests.push({ url: request.url ?? '', key, body });
    if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (request.url?.startsWith('/oauth')) {
      response.setHeader('Content-Type', 'application/json');
      response.end(
        JSON.stringify({
          token_type: 'Bearer',
          expires_in: 3600,
          access_token: `identity-${this.requests.length}`,
        }),
      );
      return;
    }
    if (!key || !this.validKeys.has(key)) {
      response.statusCode = 401;
      response.end('{"error":{"code":"401","message":"Access denied"}}');
      return;
    }
    const payload = Buffer.from(JSON.stringify({ exp: Math.floor(this.now / 1000) + 600, key })).toString(
      'base64url',
    );
    response.end(`e30.${payload}.sig${this.requests.length}`);
  }
}

describe('AiCredentialProvider', () => {
  const double = new TokenEndpointDouble();
  beforeAll(() => double.start());
  afterAll(() => double.stop());
  beforeEach(() => {
    double.requests.length = 0;
    double.validKeys = new Set(['key-one', 'key-two']);
    double.slowDown(0);
  });

  it('key and key + region modes need no request', async () => {
    expect(await new AiCredentialProvider({ mode: { kind: 'key', keys: ['k1'] } }).headers()).toEqual({
      'Ocp-Apim-Subscription-Key': 'k1',
    });
    expect(
      await new AiCredentialProvider({
        mode: { kind: 'key-and-region', keys: ['k1'], region: 'chinaeast2' },
      }).headers(),
    ).toEqual({ 'Ocp-Apim-Subscription-Key': 'k1', 'Ocp-Apim-Subscription-Region': 'chinaeast2' });
    expect(() => new AiCredentialProvider({ mode: { kind: 'key', keys: [''] } })).toThrow(AiCredentialError);
  });

  it('exchanges the key once, reuses the token until a minute before its exp, then refreshes (injected clock)', async () => {
    let now = double.now;
    const provider = new AiCredentialProvider({
      mode: { kind: 'exchanged-token', keys: ['key-one', 'key-two'], stsEndpoint: double.url },
      clock: () => now,
    });
    const first = await provider.headers();
    expect(first.Authorization).toMatch(/^Bearer e30\./);
    now += 8 * 60_000 + 59_000; // 8 min 59 s: still fresh
    expect(await provider.headers()).toEqual(first);
    expect(double.requests).toHaveLength(1);
    now += 1_000; // 9 minutes: within the last minute, refresh
    const second = await provider.headers();
    expect(second).not.toEqual(first);
    expect(double.requests).toHaveLength(2);
    expect(double.requests[0]).toMatchObject({ url: '/sts/v1.0/issueToken', key: 'key-one', body: '' });
  });

  it('one refresh in flight however many callers wait', async () => {
    double.slowDown(50);
    const provider = new AiCredentialProvider({
      mode: { kind: 'exchanged-token', keys: ['key-one'], stsEndpoint: double.url },
      clock: () => double.now,
    });
    const all = await Promise.all(Array.from({ length: 25 }, () => provider.headers()));
    expect(new Set(all.map((headers) => headers.Authorization)).size).toBe(1);
    expect(double.requests).toHaveLength(1);
    expect(provider.tokenRequests).toBe(1);
  });

  it('fails over to the second key when issueToken refuses the first', async () => {
    double.validKeys = new Set(['key-two']);
    const provider = new AiCredentialProvider({
      mode: { kind: 'exchanged-token', keys: ['key-one', 'key-two'], stsEndpoint: double.url },
    });
    await provider.headers();
    expect(double.requests.map((request) => request.key)).toEqual(['key-one', 'key-two']);
    expect(provider.currentKey).toBe('key-two');
    double.validKeys = new Set();
    provider.credentialRefused();
    await expect(provider.headers()).rejects.toMatchObject({ status: 401 });
  });

  it('send(): on 401 retries once with the other key', async () => {
    const provider = new AiCredentialProvider({ mode: { kind: 'key', keys: ['old', 'new'] } });
    const seen: string[] = [];
    const response = await provider.send((headers) => {
      seen.push(headers['Ocp-Apim-Subscription-Key'] ?? '');
      return Promise.resolve(new Response(null, { status: seen.length === 1 ? 401 : 200 }));
    });
    expect(response.status).toBe(200);
    expect(seen).toEqual(['old', 'new']);
    expect(provider.currentKey).toBe('new');
  });

  it('identity tokens: client credentials with the cognitive-services scope, cached by expires_in', async () => {
    let now = 0;
    const provider = new AiCredentialProvider({
      mode: {
        kind: 'identity-token',
        tokenEndpoint: `${double.url}/oauth`,
        clientId: 'app',
        clientSecret: 's3cret',
      },
      clock: () => now,
    });
    expect(await provider.headers()).toEqual({ Authorization: 'Bearer identity-1' });
    now += 3540_000 - 1;
    expect(await provider.headers()).toEqual({ Authorization: 'Bearer identity-1' });
    now += 1;
    expect(await provider.headers()).toEqual({ Authorization: 'Bearer identity-2' });
    expect(new URLSearchParams(double.requests[0]?.body)).toEqual(
      new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'app',
        client_secret: 's3cret',
        scope: 'https://cognitiveservices.azure.com/.default',
      }),
    );
  });
});
