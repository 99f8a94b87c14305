import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentApplication, TurnContext, TurnState } from '@microsoft/agents-hosting';
import { type Browser, chromium } from 'playwright-core';
import { loadAgentsSdk } from './support/bot-stacks';
import { decodeJwt } from './support/gateway';
import { LateBoundServer, type PlatformBot, type RunningPlatform, startPlatform } from './support/platform';

/** Debian's Chromium, headless (toolchain.md §5). Under CI a missing browser fails the run. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-quic'];
if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
const REPORTS = join(__dirname, '..', '.reports');
const AXE = require.resolve('axe-core/axe.min.js');
/** Web Chat's own browser bundle (window.WebChat), as a page embeds it. */
const WEB_CHAT = join(
  __dirname,
  '..',
  '..',
  '..',
  'node_modules',
  'botframework-webchat',
  'dist',
  'webchat.js',
);
const AGENT_IDENTITY_HEADER = 'livestream-agent-identity-header-01';

/** The streamed answer: the part the agent streams first, then the rest once the test has seen the first. */
const FIRST_PART = 'Pump 3 was last checked ';
const WHOLE_ANSWER = 'Pump 3 was last checked on Monday: outlet pressure ok, bearing temperature warn.';

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: Array<{ target: string[] }>;
}

/** What the page's Web Chat store holds of the bot's activities (read through `window.store`). */
interface StoredActivity {
  type: string;
  text?: string;
  role?: string;
}

/**
 * A company's page embedding Web Chat (WebSocket on: typing reaches the browser only over the stream, never by
 * polling), talking to the relay's Direct Line API; its store on `window.store` so the test can read what it holds.
 */
function serveChatPage(front: LateBoundServer, relayUrl: string, directLineToken: string): void {
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>Ask the agent</title><style>html,body,#chat{height:100%;margin:0}</style></head>
<body><main id="chat" aria-label="Chat with the agent"></main><script src="/webchat.js"></script>
<script>
  window.store = window.WebChat.createStore();
  window.WebChat.renderWebChat({
    directLine: window.WebChat.createDirectLine({
      domain: ${JSON.stringify(`${relayUrl}/v3/directline`)},
      token: ${JSON.stringify(directLineToken)},
    }),
    store: window.store,
    userID: 'dl_livestream-user',
    locale: 'en-US',
  }, document.getElementById('chat'));
</script></body></html>`;
  front.handler = (request, response) => {
    if (request.url === '/') return void response.writeHead(200, { 'Content-Type': 'text/html' }).end(page);
    if (request.url === '/webchat.js')
      return void response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(WEB_CHAT));
    response.writeHead(404).end();
  };
}

describe('a stock Agents SDK agent livestreams an answer to Web Chat in Chromium (authentication on)', () => {
  const agentServer = new LateBoundServer();
  const front = new LateBoundServer();
  const agent: PlatformBot = {
    id: 'livestream-agent',
    appId: 'livestream-agent-app-id',
    secret: 'livestream-agent-directline-secret',
    credentials: ['sdk: agents', `identityHeader: ${AGENT_IDENTITY_HEADER}`],
    endpoint: agentServer,
  };
  const agentAuthorization: Array<string | undefined> = [];
  const agentErrors: unknown[] = [];
  /** Lets the agent stream the rest of its answer; set when a turn is waiting for it. */
  let releaseRest: (() => void) | undefined;
  const restReleased = () =>
    new Promise<void>((resolve) => {
      releaseRest = resolve;
    });
  let platform: RunningPlatform;
  let restoreEnvironment: () => void = () => undefined;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(REPORTS, { recursive: true });
    await Promise.all([agentServer.start(), front.start()]);
    platform = await startPlatform([agent]);
    // The agent's whole configuration: the SDK's own environment variables ("Agents SDK bot, no cloud").
    const sdk = await loadAgentsSdk(platform.connector.url, {
      appId: agent.appId,
      identityHeader: AGENT_IDENTITY_HEADER,
    });
    restoreEnvironment = sdk.restore;
    const application: AgentApplication<TurnState> = new sdk.hosting.AgentApplication<TurnState>();
    application.onActivity('message', async (context: TurnContext) => {
      try {
        const stream = context.streamingResponse;
        stream.queueInformativeUpdate('Looking up the records…');
        stream.queueTextChunk(FIRST_PART);
        // As a language model's answer would: the rest comes later (here, once the browser showed the first part).
        await restReleased();
        stream.queueTextChunk(WHOLE_ANSWER.slice(FIRST_PART.length));
        await stream.endStream();
      } catch (error) {
        agentErrors.push(error);
        throw error;
      }
    });
    await sdk.serve(agentServer, application, agentAuthorization);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 120_000);

  afterAll(async () => {
    releaseRest?.();
    await browser?.close();
    restoreEnvironment();
    await platform?.close();
    await Promise.all([agentServer.stop(), front.stop()]);
  });

  it('phone (390×844): the partial text shows first, then one final message; axe clean, no console errors', async () => {
    const generated = await fetch(`${platform.relay.url}/v3/directline/tokens/generate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${agent.secret}` },
    });
    const { token } = (await generated.json()) as { token: string };
    serveChatPage(front, platform.relay.url, token);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    const errors: string[] = [];
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400) errors.push(`response: ${response.status()} ${response.url()}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    try {
      await page.goto(front.url);
      const box = page.locator('.webchat__send-box').getByRole('textbox').first();
      await box.fill('When was pump 3 last checked?');
      await box.press('Enter');

      // The first part is on screen while the agent still holds the rest back: rendered from a streamed typing.
      const transcript = page.locator('.webchat__basic-transcript');
      await transcript.getByText(FIRST_PART.trim()).first().waitFor({ timeout: 30_000 });
      expect(await transcript.getByText(WHOLE_ANSWER).count()).toBe(0);
      await page.screenshot({ path: join(REPORTS, 'agents-livestream-partial-phone.png') });
      const partial = await page.evaluate<StoredActivity[]>(
        `window.store.getState().activities.filter((a) => a.from.role === 'bot')
          .map((a) => ({ type: a.type, text: a.text, role: a.from.role }))`,
      );
      expect(partial.filter((activity) => activity.type === 'message')).toEqual([]);
      expect(partial).toContainEqual(expect.objectContaining({ type: 'typing', text: FIRST_PART }));

      // The rest: the final message replaces the streamed text, once.
      releaseRest?.();
      await transcript.getByText(WHOLE_ANSWER).first().waitFor({ timeout: 30_000 });
      const bubbles = transcript.locator('.webchat__bubble__content').filter({ hasText: FIRST_PART.trim() });
      // Web Chat drops the streamed bubble when the final message arrives: one bubble holds the answer.
      await page.waitForFunction(
        `Array.from(document.querySelectorAll('.webchat__basic-transcript .webchat__bubble__content'))
          .filter((node) => node.textContent.includes(${JSON.stringify(FIRST_PART.trim())})).length === 1`,
        undefined,
        { timeout: 30_000 },
      );
      expect(await bubbles.count()).toBe(1);
      const stored = await page.evaluate<StoredActivity[]>(
        `window.store.getState().activities.filter((a) => a.from.role === 'bot' && a.type === 'message')
          .map((a) => ({ type: a.type, text: a.text, role: a.from.role }))`,
      );
      expect(stored).toEqual([{ type: 'message', text: WHOLE_ANSWER, role: 'bot' }]);
      // The turn is over: the question is no longer "Sending" (the relay answered its POST when the agent did).
      await transcript
        .getByText('Sending', { exact: true })
        .first()
        .waitFor({ state: 'detached', timeout: 30_000 });
      await page.screenshot({ path: join(REPORTS, 'agents-livestream-final-phone.png') });

      // The channel token the agent's own JWT middleware accepted: its issuer, its audience.
      const channelToken = decodeJwt((agentAuthorization.at(-1) ?? '').replace(/^Bearer /, '')).payload;
      expect(channelToken).toMatchObject({
        iss: 'https://sts.windows.net/botframework.com/',
        aud: agent.appId,
      });

      expect(
        await page.evaluate<number>(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        ),
      ).toBeLessThanOrEqual(0);
      await page.evaluate(readFileSync(AXE, 'utf8'));
      const result = await page.evaluate<{ violations: AxeViolation[] }>(
        `axe.run(document, ${JSON.stringify({
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
          resultTypes: ['violations'],
        })})`,
      );
      const serious = result.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.map(({ target }) => ({ target })) }));
      writeFileSync(join(REPORTS, 'axe-agents-livestream.json'), JSON.stringify(serious, null, 2));
      expect(serious).toEqual([]);
      expect(errors).toEqual([]);
      expect(agentErrors).toEqual([]);
    } finally {
      releaseRest?.();
      await page
        .screenshot({ path: join(REPORTS, 'agents-livestream-last-phone.png') })
        .catch(() => undefined);
      await context.close();
    }
  }, 180_000);
});
