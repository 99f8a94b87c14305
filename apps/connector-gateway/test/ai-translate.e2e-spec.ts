import { KeyRing, signJwt } from '@fieldops/auth';
import {
  type GatewayFixture,
  IDENTITY_HEADER,
  MSI_BOT,
  requestToken,
  SECRET_BOT,
  startGatewayFixture,
} from './support/gateway';
import {
  AI_SCOPE,
  GLOBAL_TRANSLATOR,
  LIMITED,
  LOCKED,
  MULTI_EAST,
  MULTI_WEST,
  rawRequest,
  REGIONAL_TRANSLATOR,
  subdomainHost,
  testAiServices,
} from './support/ai-services';

const JSON_TYPE = 'application/json; charset=UTF-8';
const TRANSLATE = '/translate?api-version=3.0&to=zh-Hans';

describe('AI services: issueToken and translate over raw HTTP', () => {
  let fixture: GatewayFixture;
  let url: string;

  beforeAll(async () => {
    fixture = await startGatewayFixture({}, testAiServices());
    url = fixture.gateway.url;
  });
  afterAll(() => fixture.gateway.close());

  const translate = (
    options: { path?: string; host?: string; headers?: Record<string, string>; body?: string } = {},
  ) =>
    rawRequest(url, {
      path: options.path ?? TRANSLATE,
      host: options.host,
      headers: {
        'Ocp-Apim-Subscription-Key': GLOBAL_TRANSLATOR.keys[0],
        'Content-Type': JSON_TYPE,
        ...options.headers,
      },
      body: options.body ?? JSON.stringify([{ Text: 'Inspection complete' }]),
    });

  const issueToken = (key: string | undefined, options: { path?: string; host?: string } = {}) =>
    rawRequest(url, {
      path: options.path ?? '/sts/v1.0/issueToken',
      host: options.host,
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Length': '0',
        ...(key !== undefined && { 'Ocp-Apim-Subscription-Key': key }),
      },
    });

  const identityToken = async (): Promise<string> => {
    const { body } = await requestToken(fixture.gateway, {
      grant_type: 'client_credentials',
      client_id: SECRET_BOT.appId,
      client_secret: SECRET_BOT.password,
      scope: AI_SCOPE,
    });
    return String(body.access_token);
  };

  const errorOf = (response: { json(): unknown }) =>
    (response.json() as { error: { code: unknown } }).error.code;

  describe('issueToken', () => {
    it('exchanges either key for a 10-minute JWT (plain text) naming the resource and region; path in any case', async () => {
      for (const [key, path] of [
        [GLOBAL_TRANSLATOR.keys[0], '/sts/v1.0/issueToken'],
        [GLOBAL_TRANSLATOR.keys[1], '/sts/v1.0/issuetoken'],
        [GLOBAL_TRANSLATOR.keys[0], '/STS/V1.0/ISSUETOKEN'],
      ] as const) {
        const response = await issueToken(key, { path });
        expect(response.status).toBe(200);
        expect(response.headers['content-type']).toMatch(/^application\/jwt/);
        const [, payload] = response.text.split('.');
        const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<
          string,
          unknown
        >;
        expect(claims).toMatchObject({ region: 'global', resource: GLOBAL_TRANSLATOR.name });
        expect(Number(claims.exp) - Number(claims.iat)).toBe(600);
      }
    });

    it('takes the key from the Subscription-Key query parameter too', async () => {
      const response = await rawRequest(url, {
        path: `/sts/v1.0/issueToken?Subscription-Key=${GLOBAL_TRANSLATOR.keys[1]}`,
      });
      expect(response.status).toBe(200);
    });

    it('401 {"error":{"code":"401"}} for a missing, unknown or locally-disabled key', async () => {
      for (const key of [undefined, 'not-a-key-of-anything', LOCKED.keys[0]]) {
        const response = await issueToken(key);
        expect(response.status).toBe(401);
        expect(response.json()).toEqual({
          error: { code: '401', message: expect.stringContaining('Access denied') as unknown },
        });
      }
    });

    it('multi-service keys: only in the token-exchange regions, and only at their own regional host', async () => {
      expect((await issueToken(MULTI_EAST.keys[0])).status).toBe(200);
      expect(
        (await issueToken(MULTI_EAST.keys[0], { host: 'chinaeast2.api.cognitive.azure.cn' })).status,
      ).toBe(200);
      const wrongHost = await issueToken(MULTI_EAST.keys[0], { host: 'chinanorth2.api.cognitive.azure.cn' });
      expect(wrongHost.status).toBe(401);
      expect(errorOf(wrongHost)).toBe('401');
      const unsupported = await issueToken(MULTI_WEST.keys[0]);
      expect(unsupported.status).toBe(401);
      expect(unsupported.json()).toEqual({
        error: {
          code: '401',
          message: 'Token exchange for multi-service keys is not supported in region westeurope.',
        },
      });
    });
  });

  describe('translate: authentication modes', () => {
    it('single-service global key alone; response shape and headers', async () => {
      const response = await translate({ path: '/translate?api-version=3.0&from=en&to=zh-Hans&to=de' });
      expect(response.status).toBe(200);
      expect(response.json()).toEqual([
        {
          translations: [
            { text: '检查完成', to: 'zh-Hans' },
            { text: 'Prüfung abgeschlossen', to: 'de' },
          ],
        },
      ]);
      expect(response.headers['x-requestid']).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers['x-metered-usage']).toBe(String('Inspection complete'.length * 2));
      expect(response.headers['x-translation-provider']).toBe('phrasebook');
    });

    it('regional and multi-service keys need the matching Ocp-Apim-Subscription-Region (header or query)', async () => {
      const regional = { 'Ocp-Apim-Subscription-Key': REGIONAL_TRANSLATOR.keys[0] };
      expect((await translate({ headers: regional })).status).toBe(401);
      expect(
        (await translate({ headers: { ...regional, 'Ocp-Apim-Subscription-Region': 'chinanorth' } })).status,
      ).toBe(200);
      const multi = { 'Ocp-Apim-Subscription-Key': MULTI_EAST.keys[1] };
      expect((await translate({ headers: multi })).status).toBe(401);
      expect(
        (await translate({ headers: { ...multi, 'Ocp-Apim-Subscription-Region': 'chinanorth2' } })).status,
      ).toBe(401);
      expect(
        (await translate({ headers: { ...multi, 'Ocp-Apim-Subscription-Region': 'chinaeast2' } })).status,
      ).toBe(200);
      const query = await rawRequest(url, {
        path: `${TRANSLATE}&Subscription-Key=${MULTI_EAST.keys[0]}&Subscription-Region=chinaeast2`,
        headers: { 'Content-Type': JSON_TYPE },
        body: '[{"text":"ok"}]',
      });
      expect(query.status).toBe(200);
      expect(query.json()).toEqual([
        { detectedLanguage: { language: 'en', score: 1 }, translations: [{ text: '正常', to: 'zh-Hans' }] },
      ]);
      const wrongRegionalHost = await translate({
        host: 'chinanorth2.api.cognitive.azure.cn',
        headers: { ...multi, 'Ocp-Apim-Subscription-Region': 'chinaeast2' },
      });
      expect(wrongRegionalHost.status).toBe(401);
    });

    it('a token from issueToken (the region comes from the token)', async () => {
      const token = (await issueToken(MULTI_EAST.keys[0])).text;
      const response = await translate({
        headers: { 'Ocp-Apim-Subscription-Key': '', Authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
    });

    it('an identity token of a role-assigned app, only at the custom-subdomain host', async () => {
      const token = await identityToken();
      const bearer = { 'Ocp-Apim-Subscription-Key': '', Authorization: `Bearer ${token}` };
      expect(
        (await translate({ headers: bearer, host: subdomainHost(GLOBAL_TRANSLATOR.subdomain) })).status,
      ).toBe(200);
      expect((await translate({ headers: bearer })).status).toBe(401);
      expect((await translate({ headers: bearer, host: 'chinaeast2.api.cognitive.azure.cn' })).status).toBe(
        401,
      );
      expect((await translate({ headers: bearer, host: subdomainHost(MULTI_EAST.subdomain) })).status).toBe(
        401,
      );
      // Local authentication disabled: identity tokens still work, keys and exchanged tokens do not.
      expect((await translate({ headers: bearer, host: subdomainHost(LOCKED.subdomain) })).status).toBe(200);
      expect(
        (
          await translate({
            headers: { 'Ocp-Apim-Subscription-Key': LOCKED.keys[0] },
            host: subdomainHost(LOCKED.subdomain),
          })
        ).status,
      ).toBe(401);
    });

    it('an identity token from the managed-identity endpoint works the same way', async () => {
      const query = new URLSearchParams({
        'api-version': '2019-08-01',
        resource: 'https://cognitiveservices.azure.com',
        client_id: MSI_BOT.appId,
      });
      const issued = await fetch(`${url}/msi/token?${query.toString()}`, {
        headers: { 'X-IDENTITY-HEADER': IDENTITY_HEADER },
      });
      expect(issued.status).toBe(200);
      const { access_token: token } = (await issued.json()) as { access_token: string };
      const bearer = { 'Ocp-Apim-Subscription-Key': '', Authorization: `Bearer ${token}` };
      expect(
        (await translate({ headers: bearer, host: subdomainHost(GLOBAL_TRANSLATOR.subdomain) })).status,
      ).toBe(200);
      // Role assignments are per resource: the managed-identity bot has none on the locked one.
      expect((await translate({ headers: bearer, host: subdomainHost(LOCKED.subdomain) })).status).toBe(401);
    });

    it("refuses a Bot Connector token, an expired exchanged token and a key at another resource's subdomain", async () => {
      const { body } = await requestToken(fixture.gateway, {
        grant_type: 'client_credentials',
        client_id: SECRET_BOT.appId,
        client_secret: SECRET_BOT.password,
        scope: 'https://api.botframework.com/.default',
      });
      const host = subdomainHost(GLOBAL_TRANSLATOR.subdomain);
      const botToken = {
        'Ocp-Apim-Subscription-Key': '',
        Authorization: `Bearer ${String(body.access_token)}`,
      };
      expect((await translate({ headers: botToken, host })).status).toBe(401);
      const ring = new KeyRing([
        { kid: 'test-key-1', algorithm: 'RS256', secret: fixture.signingKey.privatePem },
      ]);
      const expired = signJwt(
        ring,
        { region: 'global', resource: GLOBAL_TRANSLATOR.name, iat: Math.floor(Date.now() / 1000) - 1200 },
        {
          expiresInSeconds: -900,
          issuer: 'urn:fieldops:cognitiveservices',
          audience: 'urn:ms.cognitiveservices',
        },
      );
      const response = await translate({
        headers: { 'Ocp-Apim-Subscription-Key': '', Authorization: `Bearer ${expired}` },
      });
      expect(response.status).toBe(401);
      expect(
        (await translate({ headers: { 'Ocp-Apim-Subscription-Key': MULTI_EAST.keys[0] }, host })).status,
      ).toBe(401);
    });
  });

  describe('translate: every error code, in the Translator order', () => {
    const cases: Array<[string, number, number, Parameters<typeof translate>[0]]> = [
      ['api-version missing', 400021, 400, { path: '/translate?to=zh-Hans' }],
      [
        'api-version wrong (checked before credentials)',
        400021,
        400,
        { path: '/translate?api-version=2.0&to=de', headers: { 'Ocp-Apim-Subscription-Key': 'wrong' } },
      ],
      ['no credentials', 401000, 401, { headers: { 'Ocp-Apim-Subscription-Key': '' } }],
      [
        'wrong key (checked before Content-Type)',
        401000,
        401,
        { headers: { 'Ocp-Apim-Subscription-Key': 'wrong', 'Content-Type': 'text/plain' } },
      ],
      ['Content-Type missing', 415000, 415, { headers: { 'Content-Type': '' } }],
      [
        'Content-Type not JSON (checked before the body)',
        415000,
        415,
        { headers: { 'Content-Type': 'text/plain' }, body: 'nope' },
      ],
      ['body not JSON', 400074, 400, { body: '[{"Text": ' }],
      ['to missing', 400036, 400, { path: '/translate?api-version=3.0' }],
      ['to malformed', 400036, 400, { path: '/translate?api-version=3.0&to=zh_Hans!' }],
      ['from malformed', 400035, 400, { path: '/translate?api-version=3.0&to=de&from=e' }],
      ['to not supported', 400019, 400, { path: '/translate?api-version=3.0&to=xx-Yyyy' }],
      ['from not supported', 400019, 400, { path: '/translate?api-version=3.0&to=de&from=qq' }],
      [
        'more than 1,000 elements',
        400072,
        400,
        { body: JSON.stringify(Array.from({ length: 1001 }, () => ({ Text: 'a' }))) },
      ],
      [
        'an element over 50,000 characters',
        400050,
        400,
        { body: JSON.stringify([{ Text: 'a'.repeat(50_001) }]) },
      ],
      [
        'over 50,000 characters across all targets',
        400077,
        400,
        {
          path: '/translate?api-version=3.0&to=de&to=zh-Hans',
          body: JSON.stringify([{ Text: 'a'.repeat(25_001) }]),
        },
      ],
      [
        'body larger than the read limit',
        400077,
        400,
        { body: JSON.stringify([{ Text: 'a'.repeat(1_100_000) }]) },
      ],
      ['elements without Text', 400000, 400, { body: '[{"Txt":"a"}]' }],
    ];
    it.each(cases)('%s → %d', async (_name, code, status, options) => {
      const response = await translate(options);
      expect(response.status).toBe(status);
      expect(response.json()).toEqual({ error: { code, message: expect.any(String) as unknown } });
    });

    it("429000 with Retry-After beyond the resource's characters per hour", async () => {
      const headers = { 'Ocp-Apim-Subscription-Key': LIMITED.keys[0] };
      expect((await translate({ headers, body: '[{"Text":"ok ok ok ok ok"}]' })).status).toBe(200);
      const response = await translate({ headers, body: '[{"Text":"ok ok ok ok ok"}]' });
      expect(response.status).toBe(429);
      expect(response.json()).toEqual({ error: { code: 429000, message: expect.any(String) as unknown } });
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('405000 for another method; Bot Connector errors elsewhere are unchanged', async () => {
      const response = await rawRequest(url, { method: 'GET', path: TRANSLATE });
      expect(response.status).toBe(405);
      expect(errorOf(response)).toBe(405000);
      const elsewhere = await rawRequest(url, { method: 'GET', path: '/v3/conversations/x/members' });
      expect(elsewhere.status).toBe(401);
      expect(errorOf(elsewhere)).toBe('Unauthorized');
    });
  });

  describe('phrasebook provider', () => {
    it('whole elements, trimmed, case-insensitive; unknown text unchanged; detection without from', async () => {
      const response = await translate({
        path: '/translate?api-version=3.0&to=zh-Hans',
        body: JSON.stringify([
          { Text: '  inspection COMPLETE ' },
          { text: 'Something the phrasebook does not know' },
          { TEXT: 'FAIL' },
        ]),
      });
      expect(response.status).toBe(200);
      expect(response.json()).toEqual([
        {
          detectedLanguage: { language: 'en', score: 1 },
          translations: [{ text: '检查完成', to: 'zh-Hans' }],
        },
        {
          detectedLanguage: { language: 'en', score: expect.any(Number) as unknown },
          translations: [{ text: 'Something the phrasebook does not know', to: 'zh-Hans' }],
        },
        { detectedLanguage: { language: 'en', score: 1 }, translations: [{ text: '故障', to: 'zh-Hans' }] },
      ]);
      const back = await translate({
        path: '/translate?api-version=3.0&to=en',
        body: JSON.stringify([{ Text: '你好，我是巡检机器人。' }, { Text: '检查完成' }]),
      });
      expect(back.json()).toEqual([
        {
          detectedLanguage: { language: 'zh-Hans', score: expect.any(Number) as unknown },
          translations: [{ text: '你好，我是巡检机器人。', to: 'en' }],
        },
        {
          detectedLanguage: { language: 'zh-Hans', score: 1 },
          translations: [{ text: 'Inspection complete', to: 'en' }],
        },
      ]);
    });
  });
});
