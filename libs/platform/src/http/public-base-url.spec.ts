import { type AddressInfo } from 'node:net';
import { request as httpRequest, type Server } from 'node:http';
import express from 'express';
import { HostNotAllowedException, LOCAL_HOSTS } from './allowed-hosts';
import { namedHostOf, publicBaseUrl, type TrustProxy } from './public-base-url';

/** A real Express app answering its publicBaseUrl, with `trust proxy` as given. */
async function serve(trustProxy: string | boolean, configured?: string): Promise<Server> {
  const app = express();
  app.set('trust proxy', trustProxy);
  app.get('/', (request, response) => {
    response.send(publicBaseUrl(request, configured));
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return server;
}

/** GET / with exactly the given headers. */
function get(server: Server, headers: Record<string, string>): Promise<string> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, path: '/', headers, setHost: false },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve(body));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const forwarded = {
  host: 'app.internal:8010',
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'chat.example.test',
};

describe('publicBaseUrl', () => {
  const servers: Server[] = [];
  const start = async (trustProxy: string | boolean, configured?: string) => {
    const server = await serve(trustProxy, configured);
    servers.push(server);
    return server;
  };
  afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

  it('takes the configured public URL, without its trailing slashes, over anything the request says', async () => {
    const server = await start('loopback', 'https://relay.example.test/');
    expect(await get(server, forwarded)).toBe('https://relay.example.test');
    expect(publicBaseUrl({ protocol: 'http', host: 'x' }, 'https://a.test//')).toBe('https://a.test');
  });

  it('believes X-Forwarded-Proto and X-Forwarded-Host from a trusted proxy', async () => {
    const server = await start('loopback');
    expect(await get(server, forwarded)).toBe('https://chat.example.test');
  });

  it('ignores them from anyone else, keeping the Host header with its port', async () => {
    const server = await start(false);
    expect(await get(server, forwarded)).toBe('http://app.internal:8010');
  });

  it('says localhost for a request without a host (Node refuses HTTP/1.1 ones; HTTP/1.0 may lack it)', () => {
    const request = { protocol: 'http', host: undefined as unknown as string };
    expect(publicBaseUrl(request)).toBe('http://localhost');
  });

  it('with allowed hosts, refuses a host none of them matches, unless a public URL is configured', () => {
    const stranger = { protocol: 'http', host: 'attacker.example:8010' };
    expect(() => publicBaseUrl(stranger, undefined, LOCAL_HOSTS)).toThrow(HostNotAllowedException);
    expect(publicBaseUrl(stranger, 'https://relay.example.test', LOCAL_HOSTS)).toBe(
      'https://relay.example.test',
    );
    expect(publicBaseUrl({ protocol: 'http', host: 'app.localhost:8010' }, undefined, LOCAL_HOSTS)).toBe(
      'http://app.localhost:8010',
    );
    expect(publicBaseUrl({ protocol: 'https', host: 'eu.chat.example' }, undefined, ['.chat.example'])).toBe(
      'https://eu.chat.example',
    );
    expect(() => publicBaseUrl({ protocol: 'http', host: 'a b' }, undefined, ['*'])).toThrow(
      HostNotAllowedException,
    );
  });
});

describe('namedHostOf', () => {
  it('gives what Express’s request.protocol and request.host give, for each trust proxy setting', async () => {
    for (const trustProxy of [false, true, 'loopback', '10.0.0.1']) {
      const app = express();
      app.set('trust proxy', trustProxy);
      app.get('/', (request, response) => {
        const named = namedHostOf(request, app.get('trust proxy fn') as TrustProxy);
        response.send(JSON.stringify([named, { protocol: request.protocol, host: request.host }]));
      });
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const cases: Record<string, string>[] = [
          { host: 'api.example' },
          { host: 'api.example', 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'a.example, b' },
          { host: 'api.example:8080', 'x-forwarded-host': 'front.example' },
          { host: 'api.example', 'x-forwarded-proto': ' https ' },
        ];
        for (const headers of cases) {
          const [named, express] = JSON.parse(await get(server, headers)) as [unknown, unknown];
          expect(named).toEqual(express);
        }
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });
});
