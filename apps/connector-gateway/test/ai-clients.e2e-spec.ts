import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import TextTranslationClient, { isUnexpected } from '@azure-rest/ai-translation-text';
import { AiCredentialProvider, TranslatorClient, TranslatorError } from '@fieldops/ai-credentials';
import { type GatewayFixture, SECRET_BOT, startGatewayFixture } from './support/gateway';
import {
  GLOBAL_TRANSLATOR,
  MULTI_EAST,
  REGIONAL_TRANSLATOR,
  resolveAiHostsToLoopback,
  selfSignedCertificate,
  subdomainHost,
  testAiServices,
  type TestCertificate,
} from './support/ai-services';

const run = promisify(execFile);

describe('AI services: the official client and the credential library against the gateway', () => {
  let fixture: GatewayFixture;
  let certificate: TestCertificate;
  let httpsUrl: string;

  beforeAll(async () => {
    resolveAiHostsToLoopback();
    certificate = selfSignedCertificate();
    fixture = await startGatewayFixture(
      {
        CONNECTOR_HTTPS_PORT: '0',
        CONNECTOR_TLS_CERT_FILE: certificate.certFile,
        CONNECTOR_TLS_KEY_FILE: certificate.keyFile,
      },
      testAiServices(),
    );
    httpsUrl = fixture.gateway.httpsUrl ?? '';
  });
  afterAll(() => fixture.gateway.close());

  const issueToken = async (key: string): Promise<string> =>
    (
      await fetch(`${fixture.gateway.url}/sts/v1.0/issueToken`, {
        method: 'POST',
        headers: { 'Ocp-Apim-Subscription-Key': key },
      })
    ).text();

  describe('@azure-rest/ai-translation-text 1.0.1, unchanged', () => {
    it('translates with a key + region over http (allowInsecureConnection)', async () => {
      const client = TextTranslationClient(
        fixture.gateway.url,
        { key: MULTI_EAST.keys[0], region: MULTI_EAST.region },
        { allowInsecureConnection: true },
      );
      const response = await client.path('/translate').post({
        body: [{ text: 'Inspection complete' }, { text: 'fail' }],
        queryParameters: { to: 'zh-Hans', from: 'en' },
      });
      expect(response.status).toBe('200');
      if (isUnexpected(response)) throw new Error(JSON.stringify(response.body));
      expect(response.body.map((item) => item.translations[0]?.text)).toEqual(['检查完成', '故障']);
      expect(response.headers['x-translation-provider']).toBe('phrasebook');
    });

    it('surfaces the gateway error body for a wrong key', async () => {
      const client = TextTranslationClient(
        fixture.gateway.url,
        { key: 'wrong-key-0000000000000000', region: MULTI_EAST.region },
        { allowInsecureConnection: true },
      );
      const response = await client
        .path('/translate')
        .post({ body: [{ text: 'ok' }], queryParameters: { to: 'zh-Hans' } });
      expect(response.status).toBe('401');
      expect(response.body).toEqual({ error: { code: 401000, message: expect.any(String) as unknown } });
    });

    it('translates with a token over https (certificate trusted through NODE_EXTRA_CA_CERTS)', async () => {
      const token = await issueToken(GLOBAL_TRANSLATOR.keys[1]);
      // NODE_EXTRA_CA_CERTS is read when Node starts, so the client runs in a child process that has it.
      const script = `
        const createClient = require('@azure-rest/ai-translation-text').default;
        const credential = { getToken: async () => ({ token: process.env.TOKEN, expiresOnTimestamp: Date.now() + 540000 }) };
        createClient(process.env.ENDPOINT, credential)
          .path('/translate')
          .post({ body: [{ text: 'Inspection complete' }], queryParameters: { to: 'zh-Hans,de' } })
          .then((response) => console.log(JSON.stringify({ status: response.status, body: response.body })))
          .catch((error) => { console.log(JSON.stringify({ error: String(error) })); });`;
      const { stdout } = await run(process.execPath, ['-e', script], {
        cwd: `${__dirname}/..`,
        env: { ...process.env, NODE_EXTRA_CA_CERTS: certificate.certFile, TOKEN: token, ENDPOINT: httpsUrl },
      });
      expect(JSON.parse(stdout)).toEqual({
        status: '200',
        body: [
          {
            translations: [
              { text: '检查完成', to: 'zh-Hans' },
              { text: 'Prüfung abgeschlossen', to: 'de' },
            ],
            detectedLanguage: { language: 'en', score: 1 },
          },
        ],
      });
    });
  });

  describe('AiCredentialProvider + TranslatorClient, every mode', () => {
    const translateWith = (provider: AiCredentialProvider, endpoint = fixture.gateway.url) =>
      new TranslatorClient({ endpoint, credentials: provider }).translate(
        ['Inspection complete', 'warn', 'Unknown'],
        {
          to: 'zh-Hans',
          from: 'en',
        },
      );
    const expected = ['检查完成', '警告', 'Unknown'];

    it('key', async () => {
      const provider = new AiCredentialProvider({ mode: { kind: 'key', keys: GLOBAL_TRANSLATOR.keys } });
      expect(await translateWith(provider)).toEqual(expected);
    });

    it('key + region', async () => {
      const provider = new AiCredentialProvider({
        mode: { kind: 'key-and-region', keys: REGIONAL_TRANSLATOR.keys, region: REGIONAL_TRANSLATOR.region },
      });
      expect(await translateWith(provider)).toEqual(expected);
    });

    it('exchanged token (multi-service key at its regional host), one exchange for many calls', async () => {
      const provider = new AiCredentialProvider({
        mode: {
          kind: 'exchanged-token',
          keys: MULTI_EAST.keys,
          stsEndpoint: `http://chinaeast2.api.cognitive.azure.cn:${fixture.gateway.port}`,
        },
      });
      const results = await Promise.all(Array.from({ length: 10 }, () => translateWith(provider)));
      expect(results).toEqual(Array.from({ length: 10 }, () => expected));
      expect(provider.tokenRequests).toBe(1);
    });

    it('identity token from the client-credentials endpoint, at the custom subdomain', async () => {
      const provider = new AiCredentialProvider({
        mode: {
          kind: 'identity-token',
          tokenEndpoint: `${fixture.gateway.url}/botframework.com/oauth2/v2.0/token`,
          clientId: SECRET_BOT.appId,
          clientSecret: SECRET_BOT.password,
        },
      });
      const custom = `http://${subdomainHost(GLOBAL_TRANSLATOR.subdomain)}:${fixture.gateway.port}`;
      expect(await translateWith(provider, custom)).toEqual(expected);
      // Not at a regional or generic address.
      await expect(translateWith(provider)).rejects.toEqual(expect.any(TranslatorError));
      await expect(translateWith(provider)).rejects.toMatchObject({ status: 401, code: 401000 });
    });

    it('token expiry with an injected clock (no sleeps): refreshed from issueToken a minute before its 10 minutes', async () => {
      let now = Date.now();
      const provider = new AiCredentialProvider({
        mode: { kind: 'exchanged-token', keys: GLOBAL_TRANSLATOR.keys, stsEndpoint: fixture.gateway.url },
        clock: () => now,
      });
      const first = await provider.headers();
      expect(await translateWith(provider)).toEqual(expected);
      now += 8 * 60_000 + 30_000;
      expect(await provider.headers()).toEqual(first);
      expect(provider.tokenRequests).toBe(1);
      now += 31_000; // past exp - 60 s
      const refreshed = await Promise.all(Array.from({ length: 5 }, () => provider.headers()));
      expect(provider.tokenRequests).toBe(2);
      expect(new Set(refreshed.map((headers) => headers.Authorization)).size).toBe(1);
      expect(await translateWith(provider)).toEqual(expected);
    });

    it('fails over to the second key when the first is refused', async () => {
      const provider = new AiCredentialProvider({
        mode: { kind: 'key', keys: ['no-longer-valid-key-00000000', GLOBAL_TRANSLATOR.keys[1]] },
      });
      expect(await translateWith(provider)).toEqual(expected);
      expect(provider.currentKey).toBe(GLOBAL_TRANSLATOR.keys[1]);
    });
  });
});
