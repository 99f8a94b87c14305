import { generateKeyPairSync } from 'node:crypto';
import { type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type Request } from 'express';
import jwt from 'jsonwebtoken';
import { KeyRing, signJwt } from '@fieldops/auth';
import { BotFrameworkError } from '@fieldops/contracts';
import { createLogger, loadEnvironment, Public } from '@fieldops/platform';
import { InMemoryBotRegistry } from '../bots/bot-registry';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { appIdFromClaims, BotAccessTokenVerifier } from './bot-access-token-verifier';
import { AnonymousBotsAllowed } from './anonymous-bots.decorator';
import { BotBearerGuard, type RequestWithBot } from './bot-bearer.guard';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const keyRing = new KeyRing([{ kid: 'k1', algorithm: 'RS256', secret: privateKey }]);
const environment = loadEnvironment(ConnectorGatewayEnvironment, {}, 'test');
const registry = new InMemoryBotRegistry([
  { appId: 'bot-a', displayName: 'A', messagingEndpoint: 'http://127.0.0.1/api', appPassword: 'password-a' },
  { appId: 'bot-anon', displayName: 'Anon', messagingEndpoint: 'http://127.0.0.1/api', anonymous: true },
]);
const guard = new BotBearerGuard(
  new Reflector(),
  new BotAccessTokenVerifier(keyRing, environment, registry),
  createLogger({ service: 'test', level: 'silent' }),
  registry,
);

class Routes {
  protected() {}
  @Public() open() {}
  @AnonymousBotsAllowed() anonymousAllowed() {}
}

function contextFor(authorization: string | undefined, handler: () => void = Routes.prototype.protected) {
  const request = {
    // Node's request shape (the guard reads `headers`; Express's request has it too).
    headers: authorization === undefined ? {} : { authorization },
  } as unknown as RequestWithBot;
  const context = {
    getHandler: () => handler,
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: <T>() => request as unknown as T }),
  } as unknown as ExecutionContext;
  return { context, request: request as Request & { bot?: unknown } };
}

const token = (
  claims: Record<string, unknown>,
  options: { issuer?: string; audience?: string; expiresIn?: number } = {},
) =>
  signJwt(keyRing, claims, {
    expiresInSeconds: options.expiresIn ?? 3600,
    issuer: options.issuer ?? 'urn:fieldops:connector-gateway',
    audience: options.audience ?? 'https://api.botframework.com',
  });

function refusal(authorization: string | undefined): { status: number; body: unknown } {
  try {
    guard.canActivate(contextFor(authorization).context);
  } catch (error) {
    if (error instanceof BotFrameworkError)
      return { status: error.status, body: { code: error.code, message: error.message } };
    throw error;
  }
  throw new Error('the guard let the request through');
}

describe('BotBearerGuard', () => {
  it('lets a token this gateway issued to a registered bot through and exposes the bot', () => {
    const { context, request } = contextFor(
      `Bearer ${token({ appid: 'bot-a', ver: '1.0', tid: 'botframework.com' })}`,
    );
    expect(guard.canActivate(context)).toBe(true);
    expect(request.bot).toEqual({
      appId: 'bot-a',
      tenant: 'botframework.com',
      audience: 'https://api.botframework.com',
    });
  });

  it('reads azp for v2.0 tokens (botbuilder’s rule)', () => {
    const { context, request } = contextFor(`Bearer ${token({ azp: 'bot-a', ver: '2.0' })}`);
    expect(guard.canActivate(context)).toBe(true);
    expect(request.bot).toMatchObject({ appId: 'bot-a' });
  });

  it('lets @Public() routes through without a token', () => {
    expect(guard.canActivate(contextFor(undefined, Routes.prototype.open).context)).toBe(true);
  });

  it('refuses a missing header or another scheme: 401 Unauthorized', () => {
    expect(refusal(undefined)).toEqual({
      status: 401,
      body: { code: 'Unauthorized', message: expect.any(String) },
    });
    expect(refusal(`Basic abc`).status).toBe(401);
    expect(refusal(`bearer ${token({ appid: 'bot-a' })}`).status).toBe(401);
  });

  it('refuses expired tokens beyond the 300 s skew, but accepts within it', () => {
    const now = Math.floor(Date.now() / 1000);
    const sign = (exp: number) =>
      jwt.sign(
        {
          appid: 'bot-a',
          iss: 'urn:fieldops:connector-gateway',
          aud: 'https://api.botframework.com',
          iat: exp - 3600,
          exp,
        },
        privateKey,
        {
          algorithm: 'RS256',
          keyid: 'k1',
        },
      );
    expect(refusal(`Bearer ${sign(now - 301)}`).body).toMatchObject({
      message: 'The bearer token has expired.',
    });
    expect(guard.canActivate(contextFor(`Bearer ${sign(now - 200)}`).context)).toBe(true);
  });

  it('refuses forged tokens, wrong issuer or audience, unknown or anonymous apps', () => {
    const { privateKey: other } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = jwt.sign(
      { appid: 'bot-a', iss: 'urn:fieldops:connector-gateway', aud: 'https://api.botframework.com' },
      other,
      { algorithm: 'RS256', keyid: 'k1', expiresIn: 3600 },
    );
    expect(refusal(`Bearer ${forged}`).status).toBe(401);
    expect(
      refusal(`Bearer ${token({ appid: 'bot-a' }, { issuer: 'https://api.botframework.com' })}`).status,
    ).toBe(401);
    expect(refusal(`Bearer ${token({ appid: 'bot-a' }, { audience: 'bot-a' })}`).status).toBe(401);
    expect(refusal(`Bearer ${token({ appid: 'nobody' })}`).status).toBe(401);
    expect(refusal(`Bearer ${token({ appid: 'bot-anon' })}`).status).toBe(401);
    expect(refusal(`Bearer ${token({ azp: 'bot-a', ver: '1.0' })}`).status).toBe(401);
    expect(refusal('Bearer not-a-jwt').body).toMatchObject({ message: 'The bearer token is not a JWT.' });
  });
});

describe('BotBearerGuard on routes open to anonymous bots', () => {
  const verifier = new BotAccessTokenVerifier(keyRing, environment, registry);
  const logger = createLogger({ service: 'test', level: 'silent' });

  it('lets a request without Authorization through while an anonymous bot is registered', () => {
    const withAnonymous = new BotBearerGuard(new Reflector(), verifier, logger, registry);
    expect(withAnonymous.canActivate(contextFor(undefined, Routes.prototype.anonymousAllowed).context)).toBe(
      true,
    );
  });

  it('refuses it with 401 (before the body is read) when no bot is anonymous', () => {
    const noAnonymous = new InMemoryBotRegistry([
      {
        appId: 'bot-a',
        displayName: 'A',
        messagingEndpoint: 'http://127.0.0.1/api',
        appPassword: 'password-a',
      },
    ]);
    const strict = new BotBearerGuard(new Reflector(), verifier, logger, noAnonymous);
    expect(() =>
      strict.canActivate(contextFor(undefined, Routes.prototype.anonymousAllowed).context),
    ).toThrow(BotFrameworkError);
  });
});

describe('appIdFromClaims', () => {
  it.each([
    [{ appid: 'a' }, 'a'],
    [{ appid: 'a', ver: '1.0' }, 'a'],
    [{ azp: 'b', appid: 'a', ver: '2.0' }, 'b'],
    [{ azp: 'b', ver: '1.0' }, undefined],
    [{ appid: 'a', ver: '3.0' }, undefined],
    [{ appid: 7 }, undefined],
  ])('%j → %s', (claims, expected) => expect(appIdFromClaims(claims)).toBe(expected));
});
