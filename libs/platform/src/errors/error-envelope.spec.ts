import { Writable } from 'node:stream';
import { type ArgumentsHost, BadRequestException, NotFoundException } from '@nestjs/common';
import { createLogger } from '../logging/create-logger';
import {
  type ErrorEnvelopeExtra,
  ErrorEnvelopeException,
  ErrorEnvelopeExceptionFilter,
} from './error-envelope';

/** A wire contract's own error class, free of Nest (as the gateways' BotFrameworkError). */
class PlainWireError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: ErrorEnvelopeExtra = {},
  ) {
    super(message);
  }
}

const logger = createLogger({
  service: 'test',
  destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
});

/** The codes of an imaginary wire format: the filter must know none of its own. */
const codes = {
  byStatus: { 404: 'Nowhere' },
  unparsableBody: 'Garbled',
  clientError: 'YourFault',
  serverError: 'OurFault',
};

const filter = new ErrorEnvelopeExceptionFilter(logger, codes, PlainWireError);

/** Runs the filter on one exception; answers what it wrote. */
function render(exception: unknown, by: ErrorEnvelopeExceptionFilter = filter) {
  const written: { status?: number; body?: unknown; headers: Record<string, string> } = { headers: {} };
  // Node's response API, which the filter writes with on every path.
  const response = {
    headersSent: false,
    statusCode: 200,
    setHeader: (name: string, value: string | number) => (written.headers[name] = String(value)),
    end: (text?: string) => {
      written.status = response.statusCode;
      if (text !== undefined) written.body = JSON.parse(text);
    },
  };
  const request = { method: 'GET', url: '/x', headers: {}, complete: true };
  const host = {
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ArgumentsHost;
  by.catch(exception, host);
  return written;
}

describe('ErrorEnvelopeExceptionFilter', () => {
  it('keeps a named error’s code, httpStatusCode and headers', () =>
    expect(
      render(
        new ErrorEnvelopeException(502, 'Upstream', 'it failed', {
          httpStatusCode: 500,
          headers: { A: 'b' },
        }),
      ),
    ).toEqual({
      status: 502,
      body: { error: { code: 'Upstream', message: 'it failed' }, httpStatusCode: 500 },
      headers: { A: 'b', 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': '72' },
    }));

  it('gives unnamed errors the codes it was configured with', () => {
    expect(render(new NotFoundException('Cannot GET /x')).body).toEqual({
      error: { code: 'Nowhere', message: 'Cannot GET /x' },
    });
    expect(render(new BadRequestException('bad')).body).toEqual({
      error: { code: 'YourFault', message: 'bad' },
    });
    const unparsable = new BadRequestException('Unexpected token', {
      cause: new SyntaxError('Unexpected token'),
    });
    expect(render(unparsable).body).toEqual({ error: { code: 'Garbled', message: 'Unexpected token' } });
  });

  it('hides an unexpected fault behind its error id', () => {
    const { status, body } = render(new Error('secret detail'));
    expect(status).toBe(500);
    expect(body).toEqual({
      error: {
        code: 'OurFault',
        message: expect.stringMatching(/^An internal error occurred \(error id [0-9a-f-]{36}\)$/),
      },
    });
  });

  it('renders the app’s own plain error class with its status, code, httpStatusCode and headers', () => {
    expect(
      render(new PlainWireError(429, 'Slow', 'wait', { httpStatusCode: 7, headers: { 'Retry-After': '3' } })),
    ).toEqual({
      status: 429,
      body: { error: { code: 'Slow', message: 'wait' }, httpStatusCode: 7 },
      headers: {
        'Retry-After': '3',
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': '61',
      },
    });
  });

  it('keeps a plain error’s own status even when its message reads like a dependency outage', () => {
    const { status, body } = render(new PlainWireError(409, 'Clash', 'Connection is closed.'));
    expect(status).toBe(409);
    expect(body).toEqual({ error: { code: 'Clash', message: 'Connection is closed.' } });
  });

  it('treats a plain error as an unexpected fault when the app did not name its class', () => {
    const { status, body, headers } = render(
      new PlainWireError(404, 'Gone', 'not here', { headers: { A: 'b' } }),
      new ErrorEnvelopeExceptionFilter(logger, codes),
    );
    expect(status).toBe(500);
    expect(body).toEqual({
      error: { code: 'OurFault', message: expect.stringMatching(/^An internal error occurred/) },
    });
    expect(headers.A).toBeUndefined();
  });
});
