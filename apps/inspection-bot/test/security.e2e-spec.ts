import { startInspectionBot } from '../src';

/** Probes of the security reviews (issues 15 and 22), replayed against the inspection bot so none can come back. */
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
