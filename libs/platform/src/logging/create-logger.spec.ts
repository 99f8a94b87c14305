import { Writable } from 'node:stream';
import { createLogger } from './create-logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('writes JSON with the service name, an ISO time and a textual level', () => {
    const { lines, destination } = capture();
    createLogger({ service: 'relay-gateway', destination }).info({ conversationId: 'c1' }, 'hello');
    expect(lines[0]).toMatchObject({
      service: 'relay-gateway',
      level: 'info',
      msg: 'hello',
      conversationId: 'c1',
    });
    expect(new Date(lines[0].time as string).toISOString()).toBe(lines[0].time);
  });

  it('redacts credentials in headers and bodies', () => {
    const { lines, destination } = capture();
    createLogger({ service: 's', destination }).info({
      req: {
        headers: { authorization: 'Bearer secret-token', cookie: 'sid=1', 'ocp-apim-subscription-key': 'k' },
      },
      body: { client_secret: 'p', password: 'pw', refresh: 'r', username: 'alice' },
    });
    const text = JSON.stringify(lines[0]);
    for (const secret of ['secret-token', 'sid=1', '"k"', '"p"', '"pw"', '"r"'])
      expect(text).not.toContain(secret);
    expect(text).toContain('alice');
  });
});
