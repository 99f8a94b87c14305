import { Writable } from 'node:stream';
import { type ArgumentsHost, BadRequestException, NotFoundException } from '@nestjs/common';
import { createLogger } from '../logging/create-logger';
import { ErrorEnvelopeException, ErrorEnvelopeExceptionFilter } from './error-envelope';

/** The codes of an imaginary wire format: the filter must know none of its own. */
const filter = new ErrorEnvelopeExceptionFilter(
  createLogger({
    service: 'test',
    destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
  }),
  {
    byStatus: { 404: 'Nowhere' },
    unparsableBody: 'Garbled',
    clientError: 'YourFault',
    serverError: 'OurFault',
  },
);

/** Runs the filter on one exception; answers what it wrote. */
function render(exception: unknown) {
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
  filter.catch(exception, host);
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
});
