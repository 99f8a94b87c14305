import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, type Logger } from '@fieldops/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { monthOf } from '../calendar/calendar-date';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { MailSender } from '../mail/mail-sender';
import { type ReportLanguage } from '../reports/report-text';
import { ReportsService } from '../reports/reports.service';
import { monthlyReportMail } from './monthly-report-mail';
import { latestMonthlySend } from './monthly-schedule';

/** A monthly report job: one row of `report_subscription_sends`. */
export interface MonthlyReportJob {
  send: string;
}

interface SendRow {
  status: string;
  month: string;
  recipients: string[];
  plan_id: number | null;
  device_id: number | null;
  language: ReportLanguage;
  time_zone: string;
  scope: string | null;
}

/**
 * Sends the monthly reports of the subscriptions (`/api/report-subscriptions/`). The event runner's schedule (one
 * replica per interval) calls `plan`: for each active subscription whose latest send time (`monthly-schedule.ts`)
 * has come and is not before the subscription was made, a send row is inserted, unique per subscription and month,
 * with its pg-boss job in the same transaction; a month already planned inserts nothing, so replicas and restarts
 * never plan it twice. The job (`send`) writes the month's PDF to a temporary file and emails it as an attachment
 * with a plain-text part; the row records the attempts, the last error and, once sent, the report's verification id.
 * A send whose row says `sent` is not sent again.
 */
@Injectable()
export class MonthlyReports {
  constructor(
    private readonly dataSource: DataSource,
    private readonly environment: InspectionApiEnvironment,
    private readonly reports: ReportsService,
    private readonly mail: MailSender,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The sends whose time has come, inserted in `manager`'s transaction; answers their ids (for the jobs). */
  async plan(manager: EntityManager, now = new Date()): Promise<string[]> {
    if (!this.mail.enabled) return [];
    const subscriptions: Array<{
      id: number;
      time_zone: string;
      day_of_month: number;
      send_time: string;
      created_at: Date;
    }> = await manager.query(
      `SELECT "id", "time_zone", "day_of_month", to_char("send_time", 'HH24:MI:SS') AS "send_time", "created_at"
       FROM "report_subscriptions" WHERE "active" ORDER BY "id"`,
    );
    const planned: string[] = [];
    for (const subscription of subscriptions) {
      const send = latestMonthlySend(
        {
          dayOfMonth: subscription.day_of_month,
          sendTime: subscription.send_time,
          timeZone: subscription.time_zone,
        },
        now,
      );
      // A subscription made after its latest send time waits for the next one.
      if (send.sendAt < new Date(subscription.created_at)) continue;
      const rows: Array<{ id: string }> = await manager.query(
        `INSERT INTO "report_subscription_sends" ("subscription_id", "month", "send_at") VALUES ($1, $2, $3)
         ON CONFLICT ("subscription_id", "month") DO NOTHING RETURNING "id"::text AS "id"`,
        [subscription.id, send.month.start, send.sendAt],
      );
      if (rows[0]) planned.push(rows[0].id);
    }
    return planned;
  }

  /** One attempt at a send; throws (for pg-boss to retry) when it failed, after recording the error. */
  async send(job: MonthlyReportJob, lastAttempt: boolean): Promise<void> {
    const rows: SendRow[] = await this.dataSource.query(
      `SELECT x."status", to_char(x."month", 'YYYY-MM-DD') AS "month", s."recipients", s."plan_id", s."device_id",
         s."language", s."time_zone",
         COALESCE(p."name", d."code" || ' ' || d."name") AS "scope"
       FROM "report_subscription_sends" x JOIN "report_subscriptions" s ON s."id" = x."subscription_id"
       LEFT JOIN "check_plans" p ON p."id" = s."plan_id" LEFT JOIN "devices" d ON d."id" = s."device_id"
       WHERE x."id" = $1`,
      [job.send],
    );
    const row = rows[0];
    // Gone with its subscription, or already sent (a job repeated after a crash).
    if (!row || row.status === 'sent') return;
    const directory = await mkdtemp(join(tmpdir(), 'monthly-report-'));
    try {
      const { reportId, filename, path } = await this.writePdf(row, directory);
      const month = row.month.slice(0, 7);
      const origin = this.environment.INSPECTION_PUBLIC_URL ?? '';
      const message = monthlyReportMail(row.language, {
        scope: row.scope ?? '',
        kind: row.plan_id !== null ? 'round' : 'device',
        month,
        reportId,
        verifyUrl: `${origin}/api/reports/${reportId}/`,
        filename,
      });
      await this.mail.send({
        to: row.recipients,
        subject: message.subject,
        text: message.text,
        attachments: [{ filename, content: createReadStream(path), contentType: 'application/pdf' }],
      });
      await this.dataSource.query(
        `UPDATE "report_subscription_sends" SET "status" = 'sent', "sent_at" = now(), "attempts" = "attempts" + 1,
           "last_error" = '', "report_id" = $2 WHERE "id" = $1`,
        [job.send, reportId],
      );
      this.logger.info({ send: job.send, month, recipients: row.recipients.length }, 'monthly report sent');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.dataSource.query(
        `UPDATE "report_subscription_sends" SET "attempts" = "attempts" + 1, "last_error" = $2,
           "status" = CASE WHEN $3 THEN 'failed' ELSE "status" END WHERE "id" = $1`,
        [job.send, message.slice(0, 1000), lastAttempt],
      );
      this.logger.warn({ err: error, send: job.send, lastAttempt }, 'monthly report: sending failed');
      throw error;
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  /** The month's PDF in `directory` (streamed from the report writer to the file). */
  private async writePdf(row: SendRow, directory: string) {
    const month = monthOf(row.month);
    const subject =
      row.plan_id !== null
        ? await this.reports.planPeriod(row.plan_id, month, row.language, row.time_zone)
        : await this.reports.device(row.device_id ?? 0, month.start, month.end, row.language, row.time_zone);
    let reportId = '';
    const path = join(directory, subject.filename);
    const file = createWriteStream(path);
    const closed = new Promise<void>((resolve, reject) => {
      file.once('close', resolve);
      file.once('error', reject);
    });
    const complete = await this.reports.write(
      subject,
      row.language,
      'monthly report subscription',
      this.environment.INSPECTION_PUBLIC_URL ?? '',
      file,
      ({ id }) => {
        reportId = id;
      },
    );
    await closed;
    if (!complete) throw new Error('the PDF could not be written');
    return { reportId, filename: subject.filename, path };
  }
}
