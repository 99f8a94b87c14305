/** The languages a PDF report is written in. */
export const REPORT_LANGUAGES = ['en', 'zh-CN'] as const;
export type ReportLanguage = (typeof REPORT_LANGUAGES)[number];

/**
 * The report's language: `?lang=` when given (`en` or `zh-CN`, any case; anything else is a 400 the caller raises
 * on `undefined`), else the first language of `Accept-Language` the report is written in (`zh`, `zh-CN`, `zh-Hans`
 * … are zh-CN; quality values honoured), else English.
 */
export function reportLanguage(
  lang: string | undefined,
  acceptLanguage: string | undefined,
): ReportLanguage | undefined {
  if (lang !== undefined && lang.trim() !== '') {
    const wanted = lang.trim().toLowerCase();
    return REPORT_LANGUAGES.find((language) => language.toLowerCase() === wanted);
  }
  const ranges = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const q = parameters.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((range) => range.tag !== '' && range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranges) {
    if (tag === 'zh' || tag.startsWith('zh-')) return tag === 'zh-tw' || tag === 'zh-hant' ? 'en' : 'zh-CN';
    if (tag === 'en' || tag.startsWith('en-') || tag === '*') return 'en';
  }
  return 'en';
}

/** Every label a report prints, per language. */
export interface ReportText {
  title: { record: string; round: string; device: string };
  site: string;
  device: string;
  devices: string;
  plan: string;
  period: string;
  inspectors: string;
  generated: string;
  verification: string;
  verifyAt: string;
  totals: string;
  records: string;
  checks: string;
  checksDone: string;
  checksNotDone: string;
  outOfRange: string;
  photos: string;
  actionsOpened: string;
  items: string;
  notDone: string;
  none: string;
  value: string;
  expected: string;
  note: string;
  inspector: string;
  source: string;
  action: string;
  assignee: string;
  due: string;
  unassigned: string;
  photoUnavailable: string;
  /** What follows a label (`: `, or the full-width `：` in Chinese). */
  colon: string;
  status: Record<'ok' | 'warn' | 'fail', string>;
  actionStatus: Record<'open' | 'in_progress' | 'done' | 'verified' | 'cancelled', string>;
  sources: Record<'chat' | 'qr' | 'api', string>;
  frequency: Record<'daily' | 'weekly' | 'monthly', string>;
}

export const REPORT_TEXT: Record<ReportLanguage, ReportText> = {
  en: {
    title: {
      record: 'Inspection report: check record',
      round: 'Inspection report: round',
      device: 'Inspection report: device history',
    },
    site: 'Site',
    device: 'Device',
    devices: 'Devices',
    plan: 'Plan',
    period: 'Period',
    inspectors: 'Inspectors',
    generated: 'Generated',
    verification: 'Verification id',
    verifyAt: 'Verify at',
    totals: 'Totals',
    records: 'Records',
    checks: 'Checks',
    checksDone: 'done',
    checksNotDone: 'not done',
    outOfRange: 'out of range',
    photos: 'photos',
    actionsOpened: 'Corrective actions opened',
    items: 'Items',
    notDone: 'Not done in this period',
    none: 'none',
    value: 'Value',
    expected: 'expected',
    note: 'Note',
    inspector: 'Inspector',
    source: 'Source',
    action: 'Action',
    assignee: 'assignee',
    due: 'due',
    unassigned: 'unassigned',
    photoUnavailable: 'Photo unavailable',
    colon: ': ',
    status: { ok: 'OK', warn: 'Warning', fail: 'Failure' },
    actionStatus: {
      open: 'Open',
      in_progress: 'In progress',
      done: 'Done',
      verified: 'Verified',
      cancelled: 'Cancelled',
    },
    sources: { chat: 'chat', qr: 'chat (QR label)', api: 'API' },
    frequency: { daily: 'daily', weekly: 'weekly', monthly: 'monthly' },
  },
  'zh-CN': {
    title: { record: '巡检报告：检查记录', round: '巡检报告：巡检轮次', device: '巡检报告：设备历史' },
    site: '地点',
    device: '设备',
    devices: '设备',
    plan: '计划',
    period: '周期',
    inspectors: '巡检员',
    generated: '生成时间',
    verification: '验证编号',
    verifyAt: '验证地址',
    totals: '合计',
    records: '记录',
    checks: '检查项',
    checksDone: '已完成',
    checksNotDone: '未完成',
    outOfRange: '超出范围',
    photos: '照片',
    actionsOpened: '已创建的整改措施',
    items: '明细',
    notDone: '本周期未检查',
    none: '无',
    value: '数值',
    expected: '预期',
    note: '备注',
    inspector: '巡检员',
    source: '来源',
    action: '整改措施',
    assignee: '负责人',
    due: '截止',
    unassigned: '未指派',
    photoUnavailable: '照片无法读取',
    colon: '：',
    status: { ok: '正常', warn: '警告', fail: '故障' },
    actionStatus: {
      open: '待处理',
      in_progress: '处理中',
      done: '已完成',
      verified: '已验证',
      cancelled: '已取消',
    },
    sources: { chat: '聊天', qr: '聊天（扫码）', api: 'API' },
    frequency: { daily: '每天', weekly: '每周', monthly: '每月' },
  },
};

/** "Page 3" / "第 3 页". */
export const pageLabel = (language: ReportLanguage, page: number): string =>
  language === 'zh-CN' ? `第 ${page} 页` : `Page ${page}`;

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** An instant as `YYYY-MM-DD HH:MM` in a time zone (the same digits in both languages). */
export function localDateTime(instant: Date, timeZone: string): string {
  let format = dateTimeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    dateTimeFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}
