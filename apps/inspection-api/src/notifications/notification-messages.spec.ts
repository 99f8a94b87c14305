import { consoleLink, notificationEmail, notificationMessage } from './notification-messages';

const failed = {
  type: 'record.failed',
  data: {
    id: 42,
    status: 'fail',
    value: '9 bar',
    note: '<b>leak</b>',
    checked_at: '2026-11-27T01:00:00Z',
    checked_by: 'ivy',
  },
  occurredAt: new Date('2026-11-27T01:00:00Z'),
  names: { device: 'P-1 Pump', item: 'Pressure', plan: 'Rounds' },
};

describe('notification messages (the words of an alert, en and zh-CN)', () => {
  it('writes a failed check in English, in the person’s zone, with its console link', () => {
    const message = notificationMessage(failed, 'en', 'Asia/Shanghai', 'https://x.test/console/');
    expect(message.title).toBe('Check failed: P-1 Pump — Pressure');
    expect(message.lines[0]).toBe('Checked by: ivy, Nov 27, 2026, 9:00 AM (fail)');
    expect(message.lines).toContain('Value: 9 bar');
    expect(message.link).toBe('https://x.test/console/#/records/42/show');
  });

  it('writes the same in Simplified Chinese', () => {
    const message = notificationMessage(failed, 'zh-CN', 'Asia/Shanghai', null);
    expect(message.title).toBe('检查故障：P-1 Pump — Pressure');
    expect(message.lines[0]).toBe('检查人：ivy，2026年11月27日 09:00（故障）');
    expect(message.link).toBeNull();
  });

  it('punctuates Simplified Chinese the Chinese way: no ASCII comma, brackets or label colon in any message', () => {
    const data = {
      ...failed.data,
      title: 'Fix seal',
      due_date: '2026-11-20',
      priority: 'high',
      plan: { id: 1 },
      period_start: '2026-11-27',
      period_end: '2026-11-28',
      code: 'P-1',
      name: 'Pump',
      location: 'Hall',
    };
    const types = ['record.failed', 'record.warned', 'check.due', 'check.overdue', 'action.assigned'];
    const messages = [...types, 'action.overdue', 'action.done', 'action.verified', 'device.archived'].map(
      (type) => notificationMessage({ ...failed, type, data }, 'zh-CN', 'Asia/Shanghai', 'https://x.test/c/'),
    );
    const email = notificationEmail(messages, 'zh-CN', { day: '2026-11-27' });
    // The words the platform adds (the data's own values, the times' digits and the link are as they are).
    const words = [
      ...messages.flatMap((message) => [message.title, ...message.lines]),
      email.subject,
      email.text,
    ]
      .join('\n')
      .replaceAll('https://x.test/c/', '');
    expect(words).not.toMatch(/[,()]|: /);
    expect(words).toContain('，');
    expect(words).toContain('（故障）');
  });

  it('links actions to their page and checks to the Today page', () => {
    const action = {
      ...failed,
      type: 'action.overdue',
      data: { id: 7, title: 'Fix seal', due_date: '2026-11-20' },
    };
    expect(consoleLink('https://x.test/console', action)).toBe('https://x.test/console/#/actions/7/show');
    expect(notificationMessage(action, 'en', 'UTC', null).lines).toContain('Due: 2026-11-20');
    const check = { ...failed, type: 'check.due', data: { plan: { id: 1 }, period_start: '2026-11-27' } };
    expect(consoleLink('https://x.test/console/', check)).toBe('https://x.test/console/');
  });

  it('escapes the HTML part and always has a plain-text part', () => {
    const message = notificationMessage(failed, 'en', 'UTC', 'https://x.test/console/');
    const email = notificationEmail([message], 'en');
    expect(email.subject).toBe(message.title);
    expect(email.text).toContain('Note: <b>leak</b>');
    expect(email.html).toContain('Note: &lt;b&gt;leak&lt;/b&gt;');
    expect(email.html).not.toContain('<b>leak');
    const digest = notificationEmail([message, message], 'zh-CN', { day: '2026-11-27' });
    expect(digest.subject).toBe('2026-11-27 每日摘要：2 条通知');
  });
});
