import { InProcessConversationStore } from '@fieldops/conversation-store';
import { createLogger } from '@fieldops/platform';
import { type BotConfig } from '@fieldops/platform-config';
import { type RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { type BotDelivery, type DeliveryRequest } from '../delivery/bot-delivery';
import { ConversationFactsCache } from './conversation-facts.cache';
import { ConversationMembershipService } from './conversation-membership.service';

const bot = { id: 'bot-1', appId: 'app-1', name: 'Bot One' } as unknown as BotConfig;

/** The bot, as the relay's delivery port sees it: records what it is sent. */
class RecordingBot implements BotDelivery {
  readonly received: DeliveryRequest[] = [];
  deliver(request: DeliveryRequest) {
    this.received.push(request);
    return Promise.resolve({ kind: 'delivered' as const, status: 200 });
  }
}

describe('ConversationMembershipService', () => {
  let store: InProcessConversationStore;
  let botSide: RecordingBot;
  let service: ConversationMembershipService;
  beforeEach(async () => {
    store = new InProcessConversationStore();
    botSide = new RecordingBot();
    service = new ConversationMembershipService(
      store,
      botSide,
      { RELAY_BOT_SERVICE_URL: 'http://relay.test/' } as RelayGatewayEnvironment,
      createLogger({ service: 'test', level: 'silent' }),
      new ConversationFactsCache(),
    );
    await store.create({ conversationId: 'c1', botId: 'bot-1', createdAt: Date.now() });
  });
  afterEach(() => store.close());

  const updates = () => botSide.received.map(({ activity }) => activity);

  it('announces both members at start when the user is known, from the user, once', async () => {
    await service.announceStart(bot, 'c1', { userId: 'u1', userName: 'Ann', locale: 'zh-CN' });
    expect(updates()).toEqual([
      expect.objectContaining({
        type: 'conversationUpdate',
        channelId: 'directline',
        serviceUrl: 'http://relay.test/',
        conversation: { id: 'c1' },
        from: { id: 'u1', name: 'Ann', role: 'user' },
        recipient: expect.objectContaining({ id: 'bot-1' }) as object,
        membersAdded: [expect.objectContaining({ id: 'bot-1' }), { id: 'u1', name: 'Ann', role: 'user' }],
        locale: 'zh-CN',
      }),
    ]);
    // The user joined at start: their first message announces nothing more.
    expect(await service.announceUserIfNew(bot, 'c1', { id: 'u1', name: 'Ann' })).toBe(false);
    expect(updates()).toHaveLength(1);
  });

  it('announces only the bot at start when the user is unknown, then the user before their first message, once', async () => {
    await service.announceStart(bot, 'c1', {});
    expect(updates()[0]).toMatchObject({ membersAdded: [expect.objectContaining({ id: 'bot-1' })] });
    expect(updates()[0].membersAdded).toHaveLength(1);
    expect(await service.announceUserIfNew(bot, 'c1', { id: 'u2' })).toBe(true);
    expect(updates()[1]).toMatchObject({
      from: { id: 'u2', role: 'user' },
      membersAdded: [{ id: 'u2', role: 'user' }],
    });
    expect(await service.announceUserIfNew(bot, 'c1', { id: 'u2' })).toBe(false);
    expect(updates()).toHaveLength(2);
  });

  it('gives every conversationUpdate an id of its conversation that takes no seq', async () => {
    await service.announceStart(bot, 'c1', { userId: 'u1' });
    expect(updates()[0].id).toMatch(/^c1\|update-[0-9a-f-]{36}$/);
  });

  it('logs, and does not throw, when the bot does not accept the update', async () => {
    const lines: string[] = [];
    const refusing: BotDelivery = { deliver: () => Promise.resolve({ kind: 'rejected', status: 500 }) };
    const logged = new ConversationMembershipService(
      store,
      refusing,
      { RELAY_BOT_SERVICE_URL: 'http://relay.test/' } as RelayGatewayEnvironment,
      createLogger({
        service: 'test',
        level: 'warn',
        destination: { write: (line: string) => lines.push(line) },
      }),
      new ConversationFactsCache(),
    );
    await expect(logged.announceStart(bot, 'c1', {})).resolves.toBeUndefined();
    expect(lines.map((line) => JSON.parse(line) as { msg: string; conversationId: string })).toEqual([
      expect.objectContaining({
        msg: 'conversationUpdate was not accepted by the bot',
        conversationId: 'c1',
      }),
    ]);
  });
});
