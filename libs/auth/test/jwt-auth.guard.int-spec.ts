import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type INestApplication } from '@nestjs/common';
import { type AddressInfo } from 'node:net';
import { CurrentPrincipal, JwtAuthModule, KeyRing, Public, signJwt } from '../src';

const ring = new KeyRing([
  { kid: 'k1', algorithm: 'HS256', secret: 'guard-test-secret-long-enough-0123456789' },
]);

@Controller('open')
@Public()
class OpenController {
  @Get()
  open() {
    return { open: true };
  }
}

/** A controller whose author forgot @Public(): it must be closed. */
@Controller('forgotten')
class ForgottenController {
  @Get()
  secret(@CurrentPrincipal() principal: { sub: string }) {
    return { principal };
  }
}

@Module({
  imports: [
    JwtAuthModule.forRootAsync({
      useFactory: () => ({ keyRing: ring, algorithms: ['HS256'], audience: 'tests' }),
    }),
  ],
  controllers: [OpenController, ForgottenController],
})
class GuardTestModule {}

describe('JwtAuthGuard (global, fail-closed)', () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    app = await NestFactory.create(GuardTestModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${((app.getHttpServer() as import('node:http').Server).address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app.close();
  });

  const get = (path: string, token?: string) =>
    fetch(`${base}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('lets @Public() routes through without credentials', async () => {
    const response = await get('/open');
    expect(response.status).toBe(200);
  });

  it('closes a route without a decorator: 401 with no token', async () => {
    const response = await get('/forgotten');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ message: 'authentication credentials were not provided' });
  });

  it('accepts a valid token and exposes the principal', async () => {
    const token = signJwt(ring, { sub: 'alice' }, { expiresInSeconds: 60, audience: 'tests' });
    const response = await get('/forgotten', token);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ principal: { sub: 'alice' } });
  });

  it('refuses expired, wrong-audience and unknown-key tokens with a reason', async () => {
    const expired = signJwt(ring, { sub: 'a' }, { expiresInSeconds: -5, audience: 'tests' });
    const wrongAudience = signJwt(ring, { sub: 'a' }, { expiresInSeconds: 60, audience: 'other' });
    const otherRing = new KeyRing([
      { kid: 'zz', algorithm: 'HS256', secret: 'guard-test-secret-long-enough-0123456789' },
    ]);
    const unknownKey = signJwt(otherRing, { sub: 'a' }, { expiresInSeconds: 60, audience: 'tests' });
    const answers = await Promise.all(
      [expired, wrongAudience, unknownKey].map((token) => get('/forgotten', token)),
    );
    expect(answers.map((response) => response.status)).toEqual([401, 401, 401]);
    expect(await answers[0].json()).toMatchObject({ message: 'token has expired' });
  });
});

describe('two apps in one process', () => {
  function moduleWith(ring: KeyRing) {
    @Module({
      imports: [JwtAuthModule.forRootAsync({ useFactory: () => ({ keyRing: ring, algorithms: ['HS256'] }) })],
      controllers: [ForgottenController],
    })
    class AppModule {}
    return AppModule;
  }

  it('each verifies with its own keys only (passport strategies are per module, not per process)', async () => {
    const ringA = new KeyRing([
      { kid: 'a', algorithm: 'HS256', secret: 'first-app-secret-long-enough-0123456789' },
    ]);
    const ringB = new KeyRing([
      { kid: 'b', algorithm: 'HS256', secret: 'second-app-secret-long-enough-012345678' },
    ]);
    const apps = [
      await NestFactory.create(moduleWith(ringA), { logger: false }),
      await NestFactory.create(moduleWith(ringB), { logger: false }),
    ];
    try {
      const urls: string[] = [];
      for (const app of apps) {
        await app.listen(0, '127.0.0.1');
        urls.push(
          `http://127.0.0.1:${((app.getHttpServer() as import('node:http').Server).address() as AddressInfo).port}`,
        );
      }
      const tokenA = signJwt(ringA, { sub: 'a' }, { expiresInSeconds: 60 });
      const tokenB = signJwt(ringB, { sub: 'b' }, { expiresInSeconds: 60 });
      const status = async (url: string, token: string) =>
        (await fetch(`${url}/forgotten`, { headers: { authorization: `Bearer ${token}` } })).status;
      expect([
        await status(urls[0], tokenA),
        await status(urls[0], tokenB),
        await status(urls[1], tokenB),
        await status(urls[1], tokenA),
      ]).toEqual([200, 401, 200, 401]);
    } finally {
      for (const app of apps) await app.close();
    }
  });
});
