import { join } from 'node:path';
import { type UserCommand, parseUserCommand as parse } from './user-command';
import { CHECK_STATUSES } from '../inspection-api/inspection-api.types';
import { PHRASES } from '../phrases/phrase-catalogue';
import { loadPhrasebook } from '../phrases/phrasebook-translator';

/** The status words as the bot derives them: the catalogue's, and their Simplified Chinese from the phrasebook. */
const phrasebook = loadPhrasebook(join(__dirname, '..', '..', 'phrasebook.yaml'));
const STATUS_WORDS = new Set(
  CHECK_STATUSES.flatMap((status) => [PHRASES[status], phrasebook.get(PHRASES[status])?.['zh-Hans'] ?? '']),
);
const parseUserCommand = (message: Parameters<typeof parse>[0]): UserCommand => parse(message, STATUS_WORDS);

describe('parseUserCommand', () => {
  it('reads the keywords in English and Chinese, case- and space-insensitively', () => {
    expect(parseUserCommand({ text: '  Devices ' })).toEqual({ kind: 'devices' });
    expect(parseUserCommand({ text: '设备' })).toEqual({ kind: 'devices' });
    expect(parseUserCommand({ text: 'TODAY' })).toEqual({ kind: 'today' });
    expect(parseUserCommand({ text: '今天' })).toEqual({ kind: 'today' });
    expect(parseUserCommand({ text: 'history   PUMP-001' })).toEqual({ kind: 'history', code: 'PUMP-001' });
    expect(parseUserCommand({ text: '历史 FE-010' })).toEqual({ kind: 'history', code: 'FE-010' });
    expect(parseUserCommand({ text: 'history' })).toEqual({ kind: 'history', code: undefined });
    expect(parseUserCommand({ text: 'check CMP-002' })).toEqual({ kind: 'check', code: 'CMP-002' });
  });

  it('reads "my actions" in English and Chinese, and the action cards\' submits', () => {
    for (const text of ['actions', 'My Actions', '整改', '我的整改'])
      expect(parseUserCommand({ text })).toEqual({ kind: 'actions' });
    expect(parseUserCommand({ value: { command: 'open-action', actionId: 7 } })).toEqual({
      kind: 'action',
      actionId: 7,
    });
    expect(
      parseUserCommand({ value: { command: 'comment-action', actionId: '7', comment: 'On it' } }),
    ).toEqual({
      kind: 'actionComment',
      actionId: 7,
      text: 'On it',
    });
    expect(parseUserCommand({ value: { command: 'close-action', actionId: 7, note: 7 } })).toEqual({
      kind: 'actionClose',
      actionId: 7,
      note: '',
    });
    // A malformed id is no action command.
    expect(parseUserCommand({ text: 'x', value: { command: 'open-action', actionId: -1 } })).toEqual({
      kind: 'search',
      term: 'x',
    });
  });

  it('reads a typed status word (without a card) as such', () => {
    expect(parseUserCommand({ text: 'OK' })).toEqual({ kind: 'statusWithoutCard' });
    expect(parseUserCommand({ text: '故障' })).toEqual({ kind: 'statusWithoutCard' });
  });

  it('treats any other text as a search term and empty messages as nothing', () => {
    expect(parseUserCommand({ text: 'water pump' })).toEqual({ kind: 'search', term: 'water pump' });
    expect(parseUserCommand({ text: '   ' })).toEqual({ kind: 'nothing' });
    expect(parseUserCommand({})).toEqual({ kind: 'nothing' });
  });

  it('reads an item card submit, trimming value and note; malformed submits fall back to the text', () => {
    expect(
      parseUserCommand({
        value: { action: 'record', device: '3', item: 7, status: 'fail', value: ' 4 bar ', note: ' leak ' },
      }),
    ).toEqual({
      kind: 'record',
      answer: { device: 3, item: 7, status: 'fail', value: '4 bar', note: 'leak' },
    });
    expect(parseUserCommand({ value: { action: 'record', device: 3, item: 7, status: 'broken' } })).toEqual({
      kind: 'nothing',
    });
    expect(parseUserCommand({ value: { action: 'other' }, text: 'today' })).toEqual({ kind: 'today' });
  });

  it('reads the first attachment with a contentUrl as a photo', () => {
    expect(
      parseUserCommand({
        text: 'see photo',
        attachments: [
          { contentType: 'image/png' },
          { contentType: 'image/jpeg', contentUrl: 'http://relay/x', name: 'x.jpg' },
        ],
      }),
    ).toEqual({
      kind: 'photo',
      attachment: { contentUrl: 'http://relay/x', contentType: 'image/jpeg', name: 'x.jpg' },
    });
  });

  it('reads the choice of record for a kept photo (its button text is only what the inspector sees)', () => {
    expect(
      parseUserCommand({ text: 'Seal · Pump · ok 10:02', value: { command: 'photo-for', recordId: 12 } }),
    ).toEqual({
      kind: 'photoChoice',
      recordId: 12,
    });
    expect(parseUserCommand({ text: 'x', value: { command: 'photo-for', recordId: -1 } })).toEqual({
      kind: 'search',
      term: 'x',
    });
  });

  it('reads the out-of-range buttons, and nothing else, as their command', () => {
    expect(
      parseUserCommand({
        text: 'Mark as fail',
        value: { command: 'out-of-range', recordId: 7, choice: 'fail' },
      }),
    ).toEqual({ kind: 'outOfRange', recordId: 7, choice: 'fail' });
    expect(parseUserCommand({ value: { command: 'out-of-range', recordId: '8', choice: 'keep' } })).toEqual({
      kind: 'outOfRange',
      recordId: 8,
      choice: 'keep',
    });
    expect(parseUserCommand({ value: { command: 'out-of-range', recordId: 0, choice: 'fail' } }).kind).toBe(
      'nothing',
    );
    expect(parseUserCommand({ value: { command: 'out-of-range', recordId: 7, choice: 'drop' } }).kind).toBe(
      'nothing',
    );
  });

  it('reads the notification commands in English and Chinese', () => {
    expect(parseUserCommand({ text: 'Notifications' })).toEqual({ kind: 'notifications' });
    expect(parseUserCommand({ text: '通知' })).toEqual({ kind: 'notifications' });
    expect(parseUserCommand({ text: 'notifications off' })).toEqual({
      kind: 'notifications',
      change: { chat: false },
    });
    expect(parseUserCommand({ text: 'Notifications ON' })).toEqual({
      kind: 'notifications',
      change: { chat: true },
    });
    expect(parseUserCommand({ text: '通知 关' })).toEqual({ kind: 'notifications', change: { chat: false } });
    expect(parseUserCommand({ text: '通知 关闭' })).toEqual({
      kind: 'notifications',
      change: { chat: false },
    });
    expect(parseUserCommand({ text: '通知开启' })).toEqual({ kind: 'notifications', change: { chat: true } });
    expect(parseUserCommand({ text: 'quiet 22:00-7:00' })).toEqual({
      kind: 'notifications',
      change: { quiet_hours_start: '22:00', quiet_hours_end: '07:00' },
    });
    expect(parseUserCommand({ text: '免打扰 21：30 到 06：45' })).toEqual({
      kind: 'notifications',
      change: { quiet_hours_start: '21:30', quiet_hours_end: '06:45' },
    });
    expect(parseUserCommand({ text: 'quiet off' })).toEqual({
      kind: 'notifications',
      change: { quiet_hours_start: null, quiet_hours_end: null },
    });
    expect(parseUserCommand({ text: 'remind 8:00' })).toEqual({
      kind: 'notifications',
      change: { reminder_time: '08:00' },
    });
    expect(parseUserCommand({ text: 'reminder off' })).toEqual({
      kind: 'notifications',
      change: { reminder_time: null },
    });
    expect(parseUserCommand({ text: '时区 Asia/Shanghai' })).toEqual({
      kind: 'notifications',
      change: { time_zone: 'Asia/Shanghai' },
    });
    expect(parseUserCommand({ text: '免打扰 关闭' })).toEqual({
      kind: 'notifications',
      change: { quiet_hours_start: null, quiet_hours_end: null },
    });
    expect(parseUserCommand({ text: 'time zone Europe/Paris' })).toEqual({
      kind: 'notifications',
      change: { time_zone: 'Europe/Paris' },
    });
  });

  it('answers a notification command it cannot read with a hint, and leaves other words to the device search', () => {
    for (const text of [
      'quiet 25:00-07:00',
      'quiet 22:00',
      'quiet',
      '免打扰 晚上',
      'remind 8',
      'remind',
      '提醒 明天',
      'notifications maybe',
      '通知 全部',
      'timezone',
      'timezone Asia/Shanghai please',
      '时区',
    ]) {
      expect([text, parseUserCommand({ text })]).toEqual([text, { kind: 'notificationsHint' }]);
    }
    for (const text of ['quieter pump', 'reminders board', 'notificationsx']) {
      expect(parseUserCommand({ text })).toEqual({ kind: 'search', term: text });
    }
  });
});
