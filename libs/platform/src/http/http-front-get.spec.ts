import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { Registry } from 'prom-client';
import { HttpMetrics } from '../metrics/http-metrics';
import { HttpFront } from './http-front';

describe('HttpFront hot GET routes', () => {
  it('answers a claimed GET with the security headers, request id, header middleware, access log and metrics; leaves the rest to Express', async () => {
    const lines: string[] = [];
    const registry = new Registry();
    const front = new HttpFront(
      pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
      new HttpMetrics(registry),
    );
    front.setHeaders(['X-Content-Type-Options', 'nosniff']);
    front.use((_request, response, next) => {
      response.setHeader('X-Operation', 'op');
      next();
    });
    front.get({
      claim: (request) =>
        request.url === '/hot?x=1'
          ? {
              route: '/hot',
              answer: async (_request, response) => {
                await new Promise(setImmediate);
                response.setHeader('Content-Type', 'text/plain');
                response.end('front');
              },
            }
          : undefined,
    });
    const app = express();
    app.get('/hot', (_request, response) => {
      response.send('router');
    });
    const server = createServer(front.listener(app));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const hot = await fetch(`${url}/hot?x=1`, { headers: { 'x-request-id': 'req-1' } });
      expect(await hot.text()).toBe('front');
      expect([...hot.headers.keys()]).toEqual(
        expect.arrayContaining(['x-content-type-options', 'x-request-id', 'x-operation']),
      );
      expect(hot.headers.get('x-request-id')).toBe('req-1');
      expect(await (await fetch(`${url}/hot?x=2`)).text()).toBe('router');
      // HEAD is not a claimed GET: Express answers it from its GET route (the router's length, no front middleware).
      const head = await fetch(`${url}/hot?x=1`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String('router'.length));
      expect(head.headers.get('x-operation')).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(lines.map((line) => JSON.parse(line) as { req: { id: string; url: string } })).toContainEqual(
        expect.objectContaining({ req: expect.objectContaining({ id: 'req-1', url: '/hot?x=1' }) }),
      );
      expect(await registry.metrics()).toMatch(
        /http_requests_total\{method="GET",route="\/hot",status="200"\} 1/,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
