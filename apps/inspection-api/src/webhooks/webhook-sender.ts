import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { type AllowedNetwork, refusedAddress } from './webhook-address';

export interface SendOutcome {
  ok: boolean;
  /** The receiver's HTTP status, when it answered. */
  statusCode?: number;
  /** Why the attempt failed ('' when it succeeded). */
  error: string;
}

/** The most of an answer's body read (and thrown away): receivers answer 2xx, what they say is not used. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * A `lookup` that refuses a host name resolving to an address the rule refuses: the check happens on the address
 * the connection is about to use, so a name that resolves to 127.0.0.1 (or changes after registration) is caught.
 */
export function guardedLookup(allowed: readonly AllowedNetwork[]): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const addresses: LookupAddress[] = Array.isArray(address)
        ? address
        : [{ address: address, family: family ?? 4 }];
      for (const candidate of addresses) {
        const reason = refusedAddress(candidate.address, allowed);
        if (reason) return callback(new Error(`refused: ${reason}`), '', 4);
      }
      (callback as (error: null, address: string | LookupAddress[], family?: number) => void)(
        null,
        address,
        family,
      );
    });
  };
}

/**
 * One delivery attempt: POST `body` as JSON with `headers` to `url`. Redirects are not followed (a 3xx is a
 * failure), the address is checked at connect time, and the whole attempt has `timeoutMs`.
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowed: readonly AllowedNetwork[]; userAgent: string },
): Promise<SendOutcome> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ ok: false, error: 'not a URL' });
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const reason = refusedAddress(host, options.allowed);
      if (reason) return resolve({ ok: false, error: `refused: ${reason}` });
    }
    const requestOptions: RequestOptions = {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': options.userAgent,
      },
      lookup: guardedLookup(options.allowed),
      signal: AbortSignal.timeout(options.timeoutMs),
      agent: false,
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(target, requestOptions, (response) => {
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) response.destroy();
      });
      const statusCode = response.statusCode ?? 0;
      const settle = () => {
        if (statusCode >= 200 && statusCode < 300) resolve({ ok: true, statusCode, error: '' });
        else if (statusCode >= 300 && statusCode < 400)
          resolve({ ok: false, statusCode, error: `answered ${statusCode}: redirects are not followed` });
        else resolve({ ok: false, statusCode, error: `answered ${statusCode}` });
      };
      response.on('end', settle);
      response.on('close', settle);
      response.on('error', settle);
    });
    request.on('error', (error: Error) =>
      resolve({
        ok: false,
        error:
          error.name === 'AbortError' || error.name === 'TimeoutError'
            ? `no answer within ${options.timeoutMs} ms`
            : error.message,
      }),
    );
    request.end(body);
  });
}
