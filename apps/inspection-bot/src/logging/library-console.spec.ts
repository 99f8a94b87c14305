import { Writable } from 'node:stream';
import { createLogger } from '@fieldops/platform';
import { consoleText, LibraryConsole } from './library-console';

class AuthenticationError extends Error {}

describe('LibraryConsole', () => {
  it('prints an error as one line: its class and message, never the stack', () => {
    expect(consoleText([new AuthenticationError('Signing Key could not be retrieved.')])).toBe(
      'AuthenticationError: Signing Key could not be retrieved.',
    );
    expect(consoleText(['Available keys: %s', '-----BEGIN KEY-----\nAAAA\n-----END KEY-----'])).toBe(
      'Available keys: -----BEGIN KEY-----',
    );
  });

  it('logs console output as JSON lines, or hands it to the collecting caller', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({
      service: 's',
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          done();
        },
      }),
    });
    const routed = LibraryConsole.install(logger);
    try {
      console.error(new TypeError('boom'));
      const { result, lines: collected } = await routed.collect(() => {
        console.warn('inside');
        return Promise.resolve(7);
      });
      expect(result).toBe(7);
      expect(collected).toEqual(['inside']);
    } finally {
      routed.uninstall();
    }
    expect(lines).toEqual([
      expect.objectContaining({ level: 'error', source: 'console', msg: 'TypeError: boom' }),
    ]);
  });
});
