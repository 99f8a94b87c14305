import { type ReportLanguage } from '../reports/report-text';

/** What a monthly report email says: the subject and the plain-text part, in the subscription's language. */
export interface MonthlyReportMail {
  subject: string;
  text: string;
}

/** The facts the email names. */
export interface MonthlyReportFacts {
  /** The plan's name, or the device's code and name. */
  scope: string;
  kind: 'round' | 'device';
  /** `YYYY-MM`. */
  month: string;
  /** The verification id printed on the PDF, and where it is checked. */
  reportId: string;
  verifyUrl: string;
  filename: string;
}

/** The email of one monthly report (the PDF is its attachment). */
export function monthlyReportMail(language: ReportLanguage, facts: MonthlyReportFacts): MonthlyReportMail {
  if (language === 'zh-CN') {
    const what = facts.kind === 'round' ? `计划“${facts.scope}”的巡检` : `设备 ${facts.scope} 的检查记录`;
    return {
      subject: `月度报告 ${facts.month}：${facts.scope}`,
      text: [
        `附件是 ${facts.month} ${what}报告（PDF：${facts.filename}）。`,
        '',
        `核验编号：${facts.reportId}`,
        `核验地址：${facts.verifyUrl}`,
        '',
        '此邮件由月度报告订阅自动发送；如需更改收件人，请联系主管。',
      ].join('\n'),
    };
  }
  const what = facts.kind === 'round' ? `the rounds of plan "${facts.scope}"` : `device ${facts.scope}`;
  return {
    subject: `Monthly report ${facts.month}: ${facts.scope}`,
    text: [
      `Attached is the inspection report of ${what} for ${facts.month} (PDF: ${facts.filename}).`,
      '',
      `Verification id: ${facts.reportId}`,
      `Verify at: ${facts.verifyUrl}`,
      '',
      'Sent by a monthly report subscription; ask a supervisor to change its recipients.',
    ].join('\n'),
  };
}
