import { parseChatNotification, type ChatNotification } from './chat-notification';
import { notificationCard } from './notification-card';

const base: ChatNotification = {
  id: '7',
  type: 'check.due',
  occurred_at: '2026-11-27T00:00:00.000Z',
  recipient: { id: 3, username: 'ivy', role: 'inspector', language: 'zh-CN' },
  data: { plan: { id: 1 }, device: { id: 2, code: 'PUMP-001' } },
  names: { device: 'PUMP-001 Pump', item: null, plan: 'Daily' },
  message: {
    title: '检查到期：PUMP-001 Pump',
    lines: ['计划：Daily'],
    link: null,
    link_label: '在控制台中打开',
  },
};

interface Card {
  lang: string;
  body: Array<{ text: string; color?: string }>;
  actions: unknown[];
}

describe('notification cards', () => {
  it('opens a due check in the chat, in the person’s language', () => {
    const card = notificationCard(base).content as Card;
    expect(card.lang).toBe('zh-CN');
    expect(card.body.map((block) => block.text)).toEqual(['检查到期：PUMP-001 Pump', '计划：Daily']);
    expect(card.actions).toEqual([{ type: 'Action.Submit', title: '开始检查', data: 'check PUMP-001' }]);
  });

  it('opens a failed record in the console when there is a link, and has no button without one', () => {
    const failed: ChatNotification = {
      ...base,
      type: 'record.failed',
      recipient: { ...base.recipient, language: 'en' },
      message: { ...base.message, link: 'https://x.test/console/#/records/5/show', link_label: 'Open' },
    };
    expect((notificationCard(failed).content as Card).actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Open', url: 'https://x.test/console/#/records/5/show' },
    ]);
    const unlinked = { ...failed, message: { ...failed.message, link: null } };
    expect((notificationCard(unlinked).content as Card).actions).toEqual([]);
  });

  it('opens an action in the chat for its people, and in the console for a supervisor told of it', () => {
    const assigned: ChatNotification = {
      ...base,
      type: 'action.assigned',
      recipient: { ...base.recipient, language: 'en' },
      data: { id: 12, title: 'Fix the seal', assignee: 3, assignee_team: null },
      message: { ...base.message, link: 'https://x.test/console/#/actions/12/show', link_label: 'Open' },
    };
    const open = [
      { type: 'Action.Submit', title: 'Open the action', data: { command: 'open-action', actionId: 12 } },
    ];
    expect((notificationCard(assigned).content as Card).actions).toEqual(open);
    const chinese = { ...assigned, recipient: base.recipient };
    expect((notificationCard(chinese).content as Card).actions).toEqual([{ ...open[0], title: '打开整改' }]);
    // A supervisor who is its assignee opens it in the chat; another supervisor gets the console link.
    const supervisor = { ...assigned, recipient: { ...assigned.recipient, role: 'supervisor' } };
    expect((notificationCard(supervisor).content as Card).actions).toEqual(open);
    expect(
      (notificationCard({ ...supervisor, recipient: { ...supervisor.recipient, id: 4 } }).content as Card)
        .actions,
    ).toEqual([{ type: 'Action.OpenUrl', title: 'Open', url: 'https://x.test/console/#/actions/12/show' }]);
  });

  it('draws a failed or warned check’s title in the status colour, nothing else’s', () => {
    const title = (type: string) => (notificationCard({ ...base, type }).content as Card).body[0]?.color;
    expect([
      title('record.failed'),
      title('record.warned'),
      title('check.due'),
      title('action.assigned'),
    ]).toEqual(['Attention', 'Warning', undefined, undefined]);
  });

  it('reads only well-formed hand-overs', () => {
    expect(parseChatNotification(JSON.parse(JSON.stringify(base)))).toEqual(base);
    expect(
      parseChatNotification({ ...base, recipient: { ...base.recipient, language: 'fr' } }),
    ).toBeUndefined();
    expect(parseChatNotification({ ...base, message: { ...base.message, lines: [1] } })).toBeUndefined();
    expect(parseChatNotification([])).toBeUndefined();
  });
});
