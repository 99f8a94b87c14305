import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { createLogger } from '@fieldops/platform';
import { GatewayTranslator } from './gateway-translator';

/** A Translator double (the real gateway is exercised by the browser test): counts calls, answers upper case. */
function translatorDouble(status = 200): Promise<{ server: Server; url: string; calls: string[][] }> {
  const calls: string[][] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const texts = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Array<{ Text: string }>).map(
        (element) => element.Text,
      );
      calls.push(texts);
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify(
          status === 200
            ? texts.map((text) => ({ translations: [{ text: text.toUpperCase(), to: 'zh-Hans' }] }))
            : { error: { code: 500000, message: 'down' } },
        ),
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls }),
    ),
  );
}

const logger = createLogger({ service: 'test', level: 'silent' });
const KEY = 'a-translator-key-0000000000001';

describe('GatewayTranslator', () => {
  it('asks the service once per template and language, in input order', async () => {
    const { server, url, calls } = await translatorDouble();
    try {
      const translator = new GatewayTranslator({ endpoint: url, authentication: 'key', keys: [KEY], logger });
      expect(await translator.translate(['a', 'b', 'a'], { to: 'zh-Hans', from: 'en' })).toEqual([
        'A',
        'B',
        'A',
      ]);
      expect(await translator.translate(['b', 'c'], { to: 'zh-Hans', from: 'en' })).toEqual(['B', 'C']);
      expect(calls).toEqual([['a', 'b'], ['c']]);
    } finally {
      server.close();
    }
  });

  it('answers in the source language when the service fails, and asks again next time', async () => {
    const { server, url, calls } = await translatorDouble(500);
    try {
      const translator = new GatewayTranslator({ endpoint: url, authentication: 'key', keys: [KEY], logger });
      expect(await translator.translate(['Hello'], { to: 'zh-Hans' })).toEqual(['Hello']);
      expect(await translator.translate(['Hello'], { to: 'zh-Hans' })).toEqual(['Hello']);
      expect(calls).toHaveLength(2);
    } finally {
      server.close();
    }
  });
});
