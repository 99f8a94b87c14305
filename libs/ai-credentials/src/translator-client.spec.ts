import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { AiCredentialProvider } from './ai-credential-provider';
import { TranslatorClient, TranslatorError } from './translator-client';

/** A local stand-in for a Translator v3 service: echoes `{to}:{text}`, refuses keys other than `good`. */
describe('TranslatorClient', () => {
  const seen: Array<{ url: string; key?: string; elements: number }> = [];
  let server: Server;
  let endpoint: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        const key = request.headers['ocp-apim-subscription-key'] as string | undefined;
        const body = JSON.parse(text) as Array<{ Text: string }>;
        seen.push({ url: request.url ?? '', key, elements: body.length });
        response.setHeader('Content-Type', 'application/json');
        if (key !== 'good') {
          response.statusCode = 401;
          response.end(JSON.stringify({ error: { code: 401000, message: 'denied' } }));
          return;
        }
        const to = new URL(request.url ?? '/', 'http://x').searchParams.get('to');
        response.end(
          JSON.stringify(body.map((element) => ({ translations: [{ text: `${to}:${element.Text}`, to }] }))),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen.length = 0;
  });

  it('one translated string per input, in order; from= and to= in the query', async () => {
    const client = new TranslatorClient({
      endpoint,
      credentials: new AiCredentialProvider({ mode: { kind: 'key', keys: ['good'] } }),
    });
    expect(await client.translate(['a', 'b', 'c'], { to: 'zh-Hans', from: 'en' })).toEqual([
      'zh-Hans:a',
      'zh-Hans:b',
      'zh-Hans:c',
    ]);
    expect(seen).toEqual([
      { url: '/translate?api-version=3.0&to=zh-Hans&from=en', key: 'good', elements: 3 },
    ]);
  });

  it('sends at most 1,000 elements per request; nothing for an empty list', async () => {
    const client = new TranslatorClient({
      endpoint,
      credentials: new AiCredentialProvider({ mode: { kind: 'key', keys: ['good'] } }),
    });
    const texts = Array.from({ length: 2001 }, (_, index) => String(index));
    const translated = await client.translate(texts, { to: 'de' });
    expect(translated[2000]).toBe('de:2000');
    expect(seen.map((request) => request.elements)).toEqual([1000, 1000, 1]);
    expect(await client.translate([], { to: 'de' })).toEqual([]);
    expect(seen).toHaveLength(3);
  });

  it('fails over to the second key on 401, and throws TranslatorError with the code when both are refused', async () => {
    const failingOver = new TranslatorClient({
      endpoint,
      credentials: new AiCredentialProvider({ mode: { kind: 'key', keys: ['old', 'good'] } }),
    });
    expect(await failingOver.translate(['x'], { to: 'de' })).toEqual(['de:x']);
    expect(seen.map((request) => request.key)).toEqual(['old', 'good']);
    const refused = new TranslatorClient({
      endpoint,
      credentials: new AiCredentialProvider({ mode: { kind: 'key', keys: ['bad-1', 'bad-2'] } }),
    });
    const error = await refused.translate(['x'], { to: 'de' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TranslatorError);
    expect(error).toMatchObject({ status: 401, code: 401000, message: 'denied' });
  });
});
