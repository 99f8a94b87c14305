import { connect } from 'node:net';
import { type Fixture, startFixture } from './support/relay-harness';

/** Sends a WebSocket upgrade request for `path` on a raw connection; answers what the relay wrote back. */
function upgrade(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
    });
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

/** A refused stream upgrade is an HTTP answer with the status's own reason phrase and the Direct Line error body. */
describe('refused stream upgrades', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await startFixture();
  });
  afterAll(() => fixture?.close());

  it.each([
    ['/v3/directline/conversations/c1/stream?watermark=abc', '400 Bad Request'],
    ['/v3/directline/conversations/c1/stream?t=not-a-token', '403 Forbidden'],
    ['/v3/directline/elsewhere', '404 Not Found'],
  ])('%s: %s', async (path, statusLine) => {
    const answer = await upgrade(fixture.relay.port, path);
    expect(answer.split('\r\n')[0]).toBe(`HTTP/1.1 ${statusLine}`);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: string } };
    expect(typeof body.error.code).toBe('string');
  });
});
