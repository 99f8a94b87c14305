import { randomUUID } from 'node:crypto';
import { InspectionApiClient, startInspectionBot } from '../src';
import {
  INSPECTOR,
  type RunningInspectionPlatform,
  SERVICE_ACCOUNT,
  startInspectionPlatform,
} from './support/platform';

/** Probes of the chat page's sign-in and sessions (issue 22), replayed so none can come back. */
describe('inspection-bot security: sign-in and sessions', () => {
  let platform: RunningInspectionPlatform;
  beforeAll(async () => {
    platform = await startInspectionPlatform();
  }, 60_000);
  afterAll(() => platform?.close());

  /** A sign-in from `address` (the test runner is a trusted proxy on loopback, as nginx would be). */
  const signIn = (username: string, password: string, address: string): Promise<Response> =>
    fetch(`${platform.bot.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ username, password }),
    });

  it('item 2: 30 wrong sign-ins from two addresses lock out neither the other users nor the bot', async () => {
    for (const stranger of ['198.51.100.201', '198.51.100.202']) {
      for (let attempt = 0; attempt < 15; attempt += 1) {
        const response = await signIn(`ghost-${randomUUID()}`, 'wrong', stranger);
        expect(response.status).toBe(401);
        await response.body?.cancel();
      }
    }
    // inspection-api counted each stranger's address, not the bot's: everyone else still signs in …
    const inspector = await signIn(INSPECTOR.username, INSPECTOR.password, '198.51.100.203');
    expect(inspector.status).toBe(200);
    // … and so does the bot's own service account (from the bot's address).
    const service = new InspectionApiClient({ baseUrl: platform.api.url, ...SERVICE_ACCOUNT });
    await expect(service.accessToken()).resolves.toEqual(expect.any(String));
  }, 180_000);

  it('item 3: wrong passwords for an account lock its (account, address) pair only, never the owner elsewhere', async () => {
    await platform.createAccount('dave.targeted', 'dave-password-1');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await signIn('dave.targeted', 'wrong', '198.51.100.211');
      expect(response.status).toBe(401);
      await response.body?.cancel();
    }
    const attacker = await signIn('dave.targeted', 'dave-password-1', '198.51.100.211');
    expect(attacker.status).toBe(429);
    // The owner, from an address that has not failed, signs in (inspection-api only slows the name down).
    expect((await signIn('dave.targeted', 'dave-password-1', '198.51.100.212')).status).toBe(200);
  }, 120_000);
});

describe('issue 22, item 5: published secrets are refused outside tests', () => {
  it("refuses docker-compose's old change-me password and the example configuration's secrets, naming each", async () => {
    const started = startInspectionBot({
      environment: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        INSPECTION_BOT_PORT: '0',
        INSPECTION_BOT_API_PASSWORD: 'change-me-inspection-bot-password',
        INSPECTION_BOT_DIRECTLINE_SECRET: 'demo-directline-secret-0001',
        MicrosoftAppId: '00000000-0000-0000-0000-00000000d3m0',
        MicrosoftAppPassword: 'inspection-bot-dev-password',
      },
    });
    await expect(started).rejects.toThrow(/INSPECTION_BOT_API_PASSWORD: holds a published example value/);
    await expect(started).rejects.toThrow(
      /INSPECTION_BOT_DIRECTLINE_SECRET: holds a published example value/,
    );
    await expect(started).rejects.toThrow(/MicrosoftAppPassword: holds a published example value/);
  });
});
