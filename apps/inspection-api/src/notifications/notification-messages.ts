import { type NotificationLanguage } from './notification-preferences.service';

/** What a notification is about, as the messages need it: the event and the names of what it refers to. */
export interface NotificationSubject {
  type: string;
  data: Record<string, unknown>;
  occurredAt: Date;
  /** Names read at send time (the event's data has the ids). */
  names: { device: string | null; item: string | null; plan: string | null };
}

/** One notification as words: a title, the lines under it, and where it opens (a console address), if anywhere. */
export interface NotificationMessage {
  title: string;
  lines: string[];
  link: string | null;
  linkLabel: string;
}

type Phrases = {
  titles: Record<string, string>;
  status: Record<string, string>;
  by: string;
  value: string;
  note: string;
  period: string;
  plan: string;
  due: string;
  priority: string;
  /** The colon after a label. */
  colon: string;
  /** The comma between two parts of a line. */
  comma: string;
  /** The brackets around an aside (a record's status). */
  brackets: readonly [string, string];
  open: string;
  digestTitle: (count: number, day: string) => string;
  digestIntro: string;
  footer: string;
};

/** The words per language; the Simplified Chinese ones with Chinese punctuation (：，（）), never ASCII's. */
const PHRASES: Record<NotificationLanguage, Phrases> = {
  en: {
    titles: {
      'record.failed': 'Check failed',
      'record.warned': 'Check warning',
      'check.due': 'Check due',
      'check.overdue': 'Check overdue',
      'action.assigned': 'Action assigned to you',
      'action.overdue': 'Action overdue',
      'action.done': 'Action done',
      'action.verified': 'Action verified',
      'device.archived': 'Device archived',
    },
    status: { fail: 'fail', warn: 'warn', ok: 'ok', na: 'n/a' },
    by: 'Checked by',
    value: 'Value',
    note: 'Note',
    period: 'Period',
    plan: 'Plan',
    due: 'Due',
    priority: 'Priority',
    colon: ': ',
    comma: ', ',
    brackets: [' (', ')'],
    open: 'Open in the console',
    digestTitle: (count, day) => `Daily digest for ${day}: ${count} notification${count === 1 ? '' : 's'}`,
    digestIntro: 'What happened since the last digest:',
    footer: 'You receive this because of your notification preferences (chat command "notifications").',
  },
  'zh-CN': {
    titles: {
      'record.failed': '检查故障',
      'record.warned': '检查警告',
      'check.due': '检查到期',
      'check.overdue': '检查逾期',
      'action.assigned': '指派给您的整改',
      'action.overdue': '整改逾期',
      'action.done': '整改已完成',
      'action.verified': '整改已验证',
      'device.archived': '设备已归档',
    },
    status: { fail: '故障', warn: '警告', ok: '正常', na: '不适用' },
    by: '检查人',
    value: '读数',
    note: '备注',
    period: '周期',
    plan: '计划',
    due: '截止',
    priority: '优先级',
    colon: '：',
    comma: '，',
    brackets: ['（', '）'],
    open: '在控制台中打开',
    digestTitle: (count, day) => `${day} 每日摘要：${count} 条通知`,
    digestIntro: '自上次摘要以来：',
    footer: '您收到此邮件是因为您的通知设置（聊天命令“通知”）。',
  },
};

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : typeof value === 'number' ? String(value) : null;

const idOf = (value: unknown): number | null => {
  if (typeof value === 'number') return value;
  if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'number')
    return (value as { id: number }).id;
  return null;
};

/** One format per (language, time zone): building an Intl.DateTimeFormat costs far more than using one. */
const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** A local date and time in the person's language and zone. */
export function formatTime(instant: Date, language: NotificationLanguage, timeZone: string): string {
  const key = `${language} ${timeZone}`;
  let format = timeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone });
    timeFormats.set(key, format);
  }
  return format.format(instant);
}

/** The console address of what an event is about (hash routes of the console), or null without a console URL. */
export function consoleLink(consoleUrl: string | null, subject: NotificationSubject): string | null {
  if (consoleUrl === null) return null;
  const base = consoleUrl.endsWith('/') ? consoleUrl : `${consoleUrl}/`;
  const { type, data } = subject;
  const id = idOf(data.id);
  if (type.startsWith('record.') && id !== null) return `${base}#/records/${id}/show`;
  if (type.startsWith('action.') && id !== null) return `${base}#/actions/${id}/show`;
  if (type === 'device.archived') return `${base}#/devices`;
  return base; // a check: the console's Today page
}

/** The words of one notification in a language and zone. */
export function notificationMessage(
  subject: NotificationSubject,
  language: NotificationLanguage,
  timeZone: string,
  consoleUrl: string | null,
): NotificationMessage {
  const phrases = PHRASES[language];
  const { type, data, names } = subject;
  const what = [names.device ?? text((data.device as { code?: unknown } | null)?.code), names.item]
    .filter((part): part is string => part !== null)
    .join(' — ');
  const lines: string[] = [];
  const c = phrases.colon;
  let title = phrases.titles[type] ?? type;
  if (type.startsWith('record.')) {
    title = `${title}${c}${what}`;
    const status = text(data.status);
    const checkedAt = typeof data.checked_at === 'string' ? new Date(data.checked_at) : subject.occurredAt;
    lines.push(
      `${phrases.by}${c}${text(data.checked_by) ?? '—'}${phrases.comma}${formatTime(checkedAt, language, timeZone)}` +
        (status ? `${phrases.brackets[0]}${phrases.status[status] ?? status}${phrases.brackets[1]}` : ''),
    );
    if (text(data.value)) lines.push(`${phrases.value}${c}${text(data.value)}`);
    if (text(data.note)) lines.push(`${phrases.note}${c}${text(data.note)}`);
    if (names.plan) lines.push(`${phrases.plan}${c}${names.plan}`);
  } else if (type.startsWith('check.')) {
    title = `${title}${c}${what}`;
    if (names.plan) lines.push(`${phrases.plan}${c}${names.plan}`);
    if (text(data.period_start))
      lines.push(`${phrases.period}${c}${text(data.period_start)} – ${text(data.period_end) ?? ''}`);
  } else if (type.startsWith('action.')) {
    title = `${title}${c}${text(data.title) ?? ''}`;
    if (what) lines.push(what);
    if (text(data.due_date)) lines.push(`${phrases.due}${c}${text(data.due_date)}`);
    if (text(data.priority)) lines.push(`${phrases.priority}${c}${text(data.priority)}`);
  } else if (type === 'device.archived') {
    title = `${title}${c}${[text(data.code), text(data.name)].filter(Boolean).join(' ')}`;
    if (text(data.location)) lines.push(text(data.location) ?? '');
  }
  return { title, lines, link: consoleLink(consoleUrl, subject), linkLabel: phrases.open };
}

const escapeHtml = (value: string): string =>
  value.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ?? character,
  );

/** An email of messages: a subject, a plain-text part and an HTML part (escaped; no remote content). */
export function notificationEmail(
  messages: readonly NotificationMessage[],
  language: NotificationLanguage,
  digest?: { day: string },
): { subject: string; text: string; html: string } {
  const phrases = PHRASES[language];
  const subject = digest ? phrases.digestTitle(messages.length, digest.day) : (messages[0]?.title ?? '');
  const textBlocks = messages.map((message) =>
    [
      message.title,
      ...message.lines,
      ...(message.link ? [`${message.linkLabel}${phrases.colon}${message.link}`] : []),
    ].join('\n'),
  );
  const plain = [...(digest ? [subject, phrases.digestIntro] : []), ...textBlocks, '--', phrases.footer].join(
    '\n\n',
  );
  const htmlBlocks = messages.map(
    (message) =>
      `<div style="margin:0 0 16px"><h2 style="font-size:16px;margin:0 0 4px">${escapeHtml(message.title)}</h2>` +
      message.lines.map((line) => `<div>${escapeHtml(line)}</div>`).join('') +
      (message.link
        ? `<div style="margin-top:4px"><a href="${escapeHtml(message.link)}">${escapeHtml(message.linkLabel)}</a></div>`
        : '') +
      '</div>',
  );
  const html =
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="font-family:sans-serif;font-size:14px;color:#1a1a1a">` +
    (digest
      ? `<h1 style="font-size:18px">${escapeHtml(subject)}</h1><p>${escapeHtml(phrases.digestIntro)}</p>`
      : '') +
    htmlBlocks.join('') +
    `<hr><p style="color:#666;font-size:12px">${escapeHtml(phrases.footer)}</p></body></html>`;
  return { subject, text: plain, html };
}
