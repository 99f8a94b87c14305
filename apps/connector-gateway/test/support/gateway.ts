import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hash } from '@node-rs/argon2';
import { type AiServicesConfig } from '@fieldops/platform-config';
import { type RegisteredBot, startConnectorGateway } from '../../src';
import { hexThumbprint, rsaKeyPair, type TestKeyPair } from './keys';

export type RunningGateway = Awaited<ReturnType<typeof startConnectorGateway>>;

export const SCOPE = 'https://api.botframework.com/.default';
export const RESOURCE = 'https://api.botframework.com';
export const IDENTITY_HEADER = 'identity-header-secret-for-tests';

/** The signing key and client certificates of one test gateway, plus the bots registered on it. */
export interface GatewayFixture {
  gateway: RunningGateway;
  signingKey: TestKeyPair;
  certificateKey: TestKeyPair;
  certificateThumbprint: string;
  unregisteredKey: TestKeyPair;
  bots: RegisteredBot[];
}

export const SECRET_BOT = { appId: 'secret-bot', password: 'secret-bot-password-1' };
export const HASHED_BOT = { appId: 'hashed-bot', password: 'hashed-bot-password-1' };
export const CERTIFICATE_BOT = { appId: 'certificate-bot' };
export const MSI_BOT = { appId: 'msi-bot' };
export const ANONYMOUS_BOT = { appId: 'anonymous-bot' };
/** A bot with its own identity header (system-assigned managed identity). */
export const SYSTEM_MSI_BOT = { appId: 'system-msi-bot', identityHeader: 'system-msi-bot-identity-header' };

/** Environment of a test gateway: loopback, random port, silent, keys in memory. */
export function testEnvironment(signingKey: TestKeyPair, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    CONNECTOR_GATEWAY_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    REDIS_URL: process.env.REDIS_URL,
    CONNECTOR_SIGNING_KEYS: JSON.stringify([{ kid: 'test-key-1', pem: signingKey.privatePem }]),
    CONNECTOR_DEV_SIGNING_KEY_FILE: join(mkdtempSync(join(tmpdir(), 'connector-dev-key-')), 'key.pem'),
    CONNECTOR_IDENTITY_HEADER: IDENTITY_HEADER,
    ...extra,
  };
}

/** Starts a gateway with one bot per supported authentication mode. */
export async function startGatewayFixture(
  extra: NodeJS.ProcessEnv = {},
  aiServices?: AiServicesConfig,
): Promise<GatewayFixture> {
  const signingKey = rsaKeyPair();
  const certificateKey = rsaKeyPair();
  const unregisteredKey = rsaKeyPair();
  const certificateThumbprint = hexThumbprint('certificate-bot');
  const bots: RegisteredBot[] = [
    {
      appId: SECRET_BOT.appId,
      displayName: 'Secret bot',
      messagingEndpoint: 'http://127.0.0.1:1/api/messages',
      appPassword: SECRET_BOT.password,
    },
    {
      appId: HASHED_BOT.appId,
      displayName: 'Hashed bot',
      messagingEndpoint: 'http://127.0.0.1:1/api/messages',
      appPasswordHash: await hash(HASHED_BOT.password),
    },
    {
      appId: CERTIFICATE_BOT.appId,
      displayName: 'Certificate bot',
      messagingEndpoint: 'http://127.0.0.1:1/api/messages',
      certificates: [{ pem: certificateKey.publicPem, thumbprint: certificateThumbprint }],
    },
    {
      appId: MSI_BOT.appId,
      displayName: 'Managed-identity bot',
      messagingEndpoint: 'http://127.0.0.1:1/api/messages',
      managedIdentity: true,
    },
    {
      appId: SYSTEM_MSI_BOT.appId,
      displayName: 'System-assigned identity bot',
      messagingEndpoint: 'http://127.0.0.1:1/api/messages',
      identityHeader: SYSTEM_MSI_BOT.identityHeader,
    },
    {
      appId: ANONYMOUS_BOT.appId,
      displayName: 'Anonymous bot',
      messagingEndpoint: 'http://127.0.0.1:1/api/messages',
      anonymous: true,
    },
  ];
  const gateway = await startConnectorGateway({
    environment: testEnvironment(signingKey, extra),
    bots,
    ...(aiServices && { aiServices }),
  });
  return { gateway, signingKey, certificateKey, certificateThumbprint, unregisteredKey, bots };
}

/** POSTs a form to the gateway's token endpoint. */
export async function requestToken(
  gateway: RunningGateway,
  fields: Record<string, string>,
  { tenant = 'botframework.com', query = '' }: { tenant?: string; query?: string } = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${gateway.url}/${tenant}/oauth2/v2.0/token${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8' },
    body: new URLSearchParams(fields).toString(),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    headers: response.headers,
  };
}

/** Decodes a JWT's header and payload without verifying it. */
export function decodeJwt(token: string): {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
} {
  const [header, payload] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header ?? '', 'base64url').toString()) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>,
  };
}
