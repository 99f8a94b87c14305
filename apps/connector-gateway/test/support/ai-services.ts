import { execFileSync } from 'node:child_process';
import dns from 'node:dns';
import { request as httpRequest } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AiServicesConfig, EMBEDDED_PHRASES } from '@fieldops/platform-config';
import { MSI_BOT, SECRET_BOT } from './gateway';

export const HOST_SUFFIX = 'cognitiveservices.azure.cn';
export const AI_SCOPE = 'https://cognitiveservices.azure.com/.default';

/** The test resources: one per rule the gateway enforces. */
export const GLOBAL_TRANSLATOR = {
  name: 'global-translator',
  keys: ['global-translator-key-000000000001', 'global-translator-key-000000000002'] as const,
  subdomain: 'fieldops-translator',
};
export const REGIONAL_TRANSLATOR = {
  name: 'regional-translator',
  region: 'chinanorth',
  keys: ['regional-translator-key-0000000001', 'regional-translator-key-0000000002'] as const,
};
export const MULTI_EAST = {
  name: 'multi-east',
  region: 'chinaeast2',
  keys: ['multi-east-key-00000000000000001', 'multi-east-key-00000000000000002'] as const,
  subdomain: 'multi-east',
};
export const MULTI_WEST = {
  name: 'multi-west',
  region: 'westeurope',
  keys: ['multi-west-key-00000000000000001', 'multi-west-key-00000000000000002'] as const,
};
export const LOCKED = {
  name: 'locked',
  keys: ['locked-key-000000000000000000001', 'locked-key-000000000000000000002'] as const,
  subdomain: 'locked-translator',
};
export const LIMITED = {
  name: 'limited',
  keys: ['limited-key-00000000000000000001', 'limited-key-00000000000000000002'] as const,
};

export function testAiServices(overrides: Partial<AiServicesConfig> = {}): AiServicesConfig {
  return {
    resources: [
      {
        name: GLOBAL_TRANSLATOR.name,
        kind: 'translator',
        region: 'global',
        keys: GLOBAL_TRANSLATOR.keys,
        customSubdomain: GLOBAL_TRANSLATOR.subdomain,
        localAuthDisabled: false,
        roleAssignments: [SECRET_BOT.appId, MSI_BOT.appId],
      },
      {
        name: REGIONAL_TRANSLATOR.name,
        kind: 'translator',
        region: REGIONAL_TRANSLATOR.region,
        keys: REGIONAL_TRANSLATOR.keys,
        localAuthDisabled: false,
        roleAssignments: [],
      },
      {
        name: MULTI_EAST.name,
        kind: 'multi-service',
        region: MULTI_EAST.region,
        keys: MULTI_EAST.keys,
        customSubdomain: MULTI_EAST.subdomain,
        localAuthDisabled: false,
        roleAssignments: [],
      },
      {
        name: MULTI_WEST.name,
        kind: 'multi-service',
        region: MULTI_WEST.region,
        keys: MULTI_WEST.keys,
        localAuthDisabled: false,
        roleAssignments: [],
      },
      {
        name: LOCKED.name,
        kind: 'translator',
        region: 'global',
        keys: LOCKED.keys,
        customSubdomain: LOCKED.subdomain,
        localAuthDisabled: true,
        roleAssignments: [SECRET_BOT.appId],
      },
      {
        name: LIMITED.name,
        kind: 'translator',
        region: 'global',
        keys: LIMITED.keys,
        localAuthDisabled: false,
        roleAssignments: [],
        charactersPerHour: 20,
      },
    ],
    translation: {
      provider: 'phrasebook',
      phrases: [
        ...EMBEDDED_PHRASES,
        { en: 'Inspection complete', 'zh-Hans': '检查完成', de: 'Prüfung abgeschlossen' },
      ],
    },
    regionalHosts: {
      'chinaeast2.api.cognitive.azure.cn': 'chinaeast2',
      'chinanorth2.api.cognitive.azure.cn': 'chinanorth2',
    },
    tokenExchangeRegions: ['chinaeast2', 'chinanorth2'],
    customSubdomainHostSuffix: HOST_SUFFIX,
    ...overrides,
  };
}

/** The custom-subdomain host of a resource. */
export const subdomainHost = (subdomain: string): string => `${subdomain}.${HOST_SUFFIX}`;

let loopbackNamesInstalled = false;

/**
 * Makes the test process resolve the AI host names (custom subdomains, regional hosts) to 127.0.0.1, as DNS
 * would in a deployment: the clients under test connect to the real names, the gateway sees them in Host.
 */
export function resolveAiHostsToLoopback(): void {
  if (loopbackNamesInstalled) return;
  loopbackNamesInstalled = true;
  const original = dns.lookup.bind(dns) as (...args: unknown[]) => unknown;
  const patched = (hostname: string, ...rest: unknown[]): unknown =>
    original(
      hostname.endsWith(`.${HOST_SUFFIX}`) || hostname.endsWith('.api.cognitive.azure.cn')
        ? '127.0.0.1'
        : hostname,
      ...rest,
    );
  (dns as unknown as { lookup: typeof patched }).lookup = patched;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): unknown;
}

/** A raw HTTP request to the gateway at 127.0.0.1 with any Host header (and any body bytes). */
export function rawRequest(
  gatewayUrl: string,
  options: {
    method?: string;
    path: string;
    host?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  },
): Promise<RawResponse> {
  const { port } = new URL(gatewayUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'POST',
        path: options.path,
        headers: {
          ...(options.host !== undefined && { host: `${options.host}:${port}` }),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text,
            json: () => JSON.parse(text) as unknown,
          });
        });
      },
    );
    request.on('error', reject);
    if (options.body !== undefined) request.write(options.body);
    request.end();
  });
}

export interface TestCertificate {
  certFile: string;
  keyFile: string;
}

/** A self-signed certificate for localhost, 127.0.0.1 and every custom subdomain (openssl). */
export function selfSignedCertificate(): TestCertificate {
  const directory = mkdtempSync(join(tmpdir(), 'connector-tls-'));
  const certFile = join(directory, 'cert.pem');
  const keyFile = join(directory, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      `subjectAltName=DNS:localhost,DNS:*.${HOST_SUFFIX},IP:127.0.0.1`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile };
}
