import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { answerBeforeFramework, type PlatformMiddleware } from './pre-routed-get';

describe('answerBeforeFramework', () => {
  it('answers claimed GETs after the platform middleware, and hands every other request to the framework', async () => {
    const framework = (_request: IncomingMessage, response: ServerResponse) => {
      response.end(`framework ${String(response.getHeader('x-platform') ?? 'none')}`);
    };
    const server = createServer(framework);
    const platform: PlatformMiddleware[] = [
      (_request, response, next) => {
        response.setHeader('x-platform', 'ran');
        next();
      },
      (_request, response, next) => {
        response.setHeader('x-second', 'ran');
        next();
      },
    ];
    answerBeforeFramework(server, platform, [
      {
        match: (request) =>
          request.url === '/hot'
            ? async (_request, response) => {
                await new Promise(setImmediate);
                response.end(
                  `front ${String(response.getHeader('x-platform'))} ${String(response.getHeader('x-second'))}`,
                );
              }
            : undefined,
      },
    ]);
    // A listener added later (the drain's Connection: close) still runs.
    server.on('request', (_request, response: ServerResponse) => {
      if (!response.headersSent) response.setHeader('x-later', 'ran');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const hot = await fetch(`${url}/hot`);
      expect(await hot.text()).toBe('front ran ran');
      expect(hot.headers.get('x-later')).toBe('ran');
      expect(await (await fetch(`${url}/other`)).text()).toBe('framework none');
      expect(await (await fetch(`${url}/hot`, { method: 'POST', body: '{}' })).text()).toBe('framework none');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
