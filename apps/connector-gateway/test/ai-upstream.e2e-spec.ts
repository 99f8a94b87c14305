import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { AiCredentialProvider, TranslatorClient } from '@fieldops/ai-credentials';
import { type GatewayFixture, startGatewayFixture } from './support/gateway';
import { GLOBAL_TRANSLATOR, rawRequest, testAiServices } from './support/ai-services';

const UPSTREAM_KEY = 'upstream-translator-key-000000001';

interface SeenRequest {
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** A stand-in for an upstream Translator v3 service (outside the platform): upper-cases texts, or fails on demand. */
class UpstreamTranslatorDouble {
  readonly seen: SeenRequest[] = [];
  answer: 'translate' | 'bad-language' | 'unauthorized' | 'broken' = 'translate';
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of request) text += String(chunk);
    const body = JSON.parse(text) as Array<{ Text: string }>;
    this.seen.push({ url: request.url ?? '', headers: request.headers, body });
    response.setHeader('Content-Type', 'application/json');
    if (this.answer === 'bad-language') {
      response.statusCode = 400;
      response.end(JSON.stringify({ error: { code: 400036, message: 'The target language is not valid.' } }));
      return;
    }
    if (this.answer === 'unauthorized') {
      response.statusCode = 401;
      response.end(JSON.stringify({ error: { code: 401000, message: 'denied' } }));
      return;
    }
    if (this.answer === 'broken') {
      response.statusCode = 200;
      response.end('not json');
      return;
    }
    const targets = new URL(request.url ?? '/', 'http://upstream').searchParams.getAll('to');
    response.setHeader('X-mt-system', 'Neural');
    response.end(
      JSON.stringify(
        body.map((element) => ({
          detectedLanguage: { language: 'en', score: 0.98 },
          translations: targets.map((to) => ({ text: `${to}:${element.Text.toUpperCase()}`, to })),
        })),
      ),
    );
  }
}

describe('AI services: the upstream Translator provider', () => {
  const upstream = new UpstreamTranslatorDouble();
  let fixture: GatewayFixture;

  beforeAll(async () => {
    await upstream.start();
    fixture = await startGatewayFixture(
      {},
      testAiServices({
        translation: {
          provider: 'upstream',
          endpoint: upstream.url,
          key: UPSTREAM_KEY,
          region: 'chinaeast2',
          timeoutMs: 2000,
        },
      }),
    );
  });
  afterAll(async () => {
    await fixture.gateway.close();
    await upstream.stop();
  });
  beforeEach(() => {
    upstream.answer = 'translate';
    upstream.seen.length = 0;
  });

  const translate = (path = '/translate?api-version=3.0&to=zh-Hans&to=de') =>
    rawRequest(fixture.gateway.url, {
      path,
      headers: { 'Ocp-Apim-Subscription-Key': GLOBAL_TRANSLATOR.keys[0], 'Content-Type': 'application/json' },
      body: JSON.stringify([{ text: 'first' }, { Text: 'second' }]),
    });

  it('forwards with its own credentials and answers in the upstream shape, naming the provider', async () => {
    const response = await translate();
    expect(response.status).toBe(200);
    expect(response.headers['x-translation-provider']).toBe('upstream');
    expect(response.headers['x-mt-system']).toBe('Neural');
    expect(response.headers['x-metered-usage']).toBe(String(('first'.length + 'second'.length) * 2));
    expect(response.json()).toEqual([
      {
        detectedLanguage: { language: 'en', score: 0.98 },
        translations: [
          { text: 'zh-Hans:FIRST', to: 'zh-Hans' },
          { text: 'de:FIRST', to: 'de' },
        ],
      },
      {
        detectedLanguage: { language: 'en', score: 0.98 },
        translations: [
          { text: 'zh-Hans:SECOND', to: 'zh-Hans' },
          { text: 'de:SECOND', to: 'de' },
        ],
      },
    ]);
    const [seen] = upstream.seen;
    expect(seen?.url).toBe('/translate?api-version=3.0&to=zh-Hans&to=de');
    expect(seen?.headers['ocp-apim-subscription-key']).toBe(UPSTREAM_KEY);
    expect(seen?.headers['ocp-apim-subscription-region']).toBe('chinaeast2');
    expect(seen?.headers['x-clienttraceid']).toBe(response.headers['x-requestid']);
    expect(seen?.body).toEqual([{ Text: 'first' }, { Text: 'second' }]);
  });

  it('passes from= on and serves the TranslatorClient', async () => {
    const client = new TranslatorClient({
      endpoint: fixture.gateway.url,
      credentials: new AiCredentialProvider({ mode: { kind: 'key', keys: GLOBAL_TRANSLATOR.keys } }),
    });
    expect(await client.translate(['a', 'b'], { to: 'zh-Hans', from: 'en' })).toEqual([
      'zh-Hans:A',
      'zh-Hans:B',
    ]);
    expect(upstream.seen[0]?.url).toBe('/translate?api-version=3.0&to=zh-Hans&from=en');
  });

  it('passes the upstream 400 errors on; its refusals and broken answers are 503000', async () => {
    upstream.answer = 'bad-language';
    const refused = await translate();
    expect(refused.status).toBe(400);
    expect(refused.json()).toEqual({ error: { code: 400036, message: 'The target language is not valid.' } });
    for (const answer of ['unauthorized', 'broken'] as const) {
      upstream.answer = answer;
      const response = await translate();
      expect(response.status).toBe(503);
      expect(response.json()).toEqual({ error: { code: 503000, message: expect.any(String) as unknown } });
    }
  });

  it('never reaches the upstream when the caller is refused', async () => {
    const response = await rawRequest(fixture.gateway.url, {
      path: '/translate?api-version=3.0&to=de',
      headers: { 'Ocp-Apim-Subscription-Key': 'wrong-key-000000000000', 'Content-Type': 'application/json' },
      body: '[{"Text":"x"}]',
    });
    expect(response.status).toBe(401);
    expect(upstream.seen).toHaveLength(0);
  });
});
