import { Writable } from 'node:stream';
import { createLogger, logFormat, terminalDestination } from './create-logger';

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

describe('logFormat', () => {
  it('writes readable lines to a terminal and JSON to anything else', () => {
    expect(logFormat({ isTTY: true })).toBe('readable');
    expect(logFormat({ isTTY: false })).toBe('json');
    expect(logFormat({})).toBe('json');
  });
});

describe('JSON lines (not a terminal)', () => {
  it('keep their fields in the order collectors see today', () => {
    const text: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text.push(chunk.toString());
        done();
      },
    });
    createLogger({ service: 'relay-gateway', destination }).warn({ conversationId: 'c1' }, 'hello');
    expect(text[0]).toMatch(
      /^\{"level":"warn","time":"[^"]+","service":"relay-gateway","conversationId":"c1","msg":"hello"\}\n$/,
    );
  });
});

describe('terminalDestination', () => {
  function terminal() {
    let text = '';
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    return { output, text: () => text.split('\n').filter((line) => line !== '') };
  }

  it('writes one readable line per entry: time, level, service, message, then the other fields', () => {
    const { output, text } = terminal();
    const logger = createLogger({
      service: 'relay-gateway',
      destination: terminalDestination(output, false),
    });
    logger.warn({ conversationId: 'c1' }, 'hello');
    expect(text()).toEqual([
      expect.stringMatching(
        /^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: relay-gateway: hello \{"conversationId":"c1"\}$/,
      ),
    ]);
  });

  it('shows an access line as method, URL, status and duration', () => {
    const { output, text } = terminal();
    const logger = createLogger({
      service: 'inspection-api',
      destination: terminalDestination(output, false),
    });
    logger.info(
      {
        req: { id: 'r1', method: 'GET', url: '/api/devices/', remoteAddress: '127.0.0.1' },
        res: { statusCode: 200 },
        responseTime: 4,
      },
      'request completed',
    );
    expect(text()).toEqual([
      expect.stringMatching(/\] INFO: inspection-api: GET \/api\/devices\/ 200 4 ms$/),
    ]);
  });

  it('still redacts credentials', () => {
    const { output, text } = terminal();
    createLogger({ service: 's', destination: terminalDestination(output, false) }).info(
      { body: { password: 'pw' } },
      'x',
    );
    expect(text().join('\n')).not.toContain('pw"');
    expect(text().join('\n')).toContain('[redacted]');
  });
});
