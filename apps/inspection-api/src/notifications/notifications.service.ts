import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, type Logger } from '@fieldops/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { localDate } from '../calendar/zoned-time';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { MailSender } from '../mail/mail-sender';
import { ChatHandover } from './chat-handover';
import { type Role } from '../users/role';
import { audienceSql } from './notification-audience';
import { type NotificationSubject, notificationEmail, notificationMessage } from './notification-messages';
import { DEFAULT_EVENTS, type NotificationLanguage } from './notification-preferences.service';
import { digestTime, type NotificationPreferences, notificationTime } from './notification-schedule';

/** The ways a notification reaches a person. */
export type NotificationChannel = 'email' | 'chat';

/** A notification or digest due to be sent (a job of the runner's notification queue). */
export type NotificationJob = { notification: string } | { digest: { user: number; day: string } };

/** A person's preferences as stored (null `events`: their role's defaults). */
interface PreferenceRow {
  user_id: number;
  role: Role;
  events: string[] | null;
  quiet_hours_start: string | null;
  quiet_hours_end: string | null;
  time_zone: string | null;
  reminder_time: string | null;
  email: string | null;
  language: NotificationLanguage | null;
  email_digest: boolean | null;
  chat: boolean | null;
  username: string;
}

const PREFERENCE_COLUMNS = `u."id" AS "user_id", u."role", p."events",
  to_char(p."quiet_hours_start", 'HH24:MI:SS') AS "quiet_hours_start", to_char(p."quiet_hours_end", 'HH24:MI:SS') AS "quiet_hours_end",
  p."time_zone", to_char(p."reminder_time", 'HH24:MI:SS') AS "reminder_time", p."email", p."language", p."email_digest", p."chat", u."username"`;

const preferencesOf = (row: PreferenceRow): NotificationPreferences => ({
  events: row.events ?? DEFAULT_EVENTS[row.role],
  quietHoursStart: row.quiet_hours_start,
  quietHoursEnd: row.quiet_hours_end,
  timeZone: row.time_zone,
  reminderTime: row.reminder_time,
});

/** Events read per digest (the newest; a digest of more says how many it left out). */
const DIGEST_LIMIT = 100;

/**
 * Notifications to people: which (event, person, channel) is due when, recorded once (`notifications`), and the
 * sending of each and of the daily digest (`notification_digests`). The event runner calls `fanOut` in its
 * dispatch transaction and runs the jobs; who may be told is `notification-audience.ts`, whether and when
 * `notification-schedule.ts`.
 */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly environment: InspectionApiEnvironment,
    private readonly mail: MailSender,
    private readonly chat: ChatHandover,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The channels this process can send on. */
  private channels(): NotificationChannel[] {
    return [
      ...(this.mail.enabled ? (['email'] as const) : []),
      ...(this.chat.enabled ? (['chat'] as const) : []),
    ];
  }

  /**
   * In the dispatch transaction: a `notifications` row per event, person and channel that person is to be told on
   * (an address for email), with the time it is due; an existing row is kept (a re-dispatch adds nothing). Returns
   * the new rows, for the caller to enqueue at their time.
   */
  async fanOut(
    db: EntityManager,
    eventIds: readonly string[],
    now = new Date(),
  ): Promise<Array<{ id: string; sendAt: Date }>> {
    const channels = this.channels();
    if (!channels.length || !eventIds.length) return [];
    const candidates: Array<
      PreferenceRow & { event_id: string; type: string; data: Record<string, unknown>; occurred_at: Date }
    > = await db.query(
      `SELECT e."id" AS "event_id", e."type", e."data", e."occurred_at", ${PREFERENCE_COLUMNS}
       FROM "events" e JOIN "users" u ON ${audienceSql('$2')}
       LEFT JOIN "notification_preferences" p ON p."user_id" = u."id"
       WHERE e."id" = ANY($1::bigint[]) ORDER BY e."id", u."id"`,
      [eventIds, this.environment.INSPECTION_SERVICE_ACCOUNTS],
    );
    const rows: Array<{ event: string; user: number; channel: NotificationChannel; sendAt: string }> = [];
    for (const candidate of candidates) {
      const periodStart =
        typeof candidate.data.period_start === 'string' ? candidate.data.period_start : undefined;
      const at = notificationTime(
        preferencesOf(candidate),
        { type: candidate.type, occurredAt: new Date(candidate.occurred_at), periodStart },
        now,
        this.environment.INSPECTION_TIME_ZONE,
      );
      if (at === null) continue;
      for (const channel of channels)
        if (channel === 'email' ? candidate.email !== null : candidate.chat !== false)
          rows.push({
            event: candidate.event_id,
            user: candidate.user_id,
            channel,
            sendAt: at.toISOString(),
          });
    }
    if (!rows.length) return [];
    const created: Array<{ id: string; send_at: Date }> = await db.query(
      `INSERT INTO "notifications" ("event_id", "user_id", "channel", "send_at")
       SELECT (r->>'event')::bigint, (r->>'user')::int, r->>'channel', (r->>'sendAt')::timestamptz
       FROM jsonb_array_elements($1::jsonb) r
       ON CONFLICT ("event_id", "user_id", "channel") DO NOTHING RETURNING "id", "send_at"`,
      [JSON.stringify(rows)],
    );
    return created.map((row) => ({ id: String(row.id), sendAt: new Date(row.send_at) }));
  }

  /**
   * Every person with an email address and the digest on whose digest time today has come, and who has no digest
   * row for today yet: writes the row (once per person and day, whatever the replicas) in `db` and returns them.
   */
  async planDigests(db: EntityManager, now = new Date()): Promise<Array<{ user: number; day: string }>> {
    if (!this.mail.enabled) return [];
    const people: PreferenceRow[] = await db.query(
      `SELECT ${PREFERENCE_COLUMNS} FROM "users" u JOIN "notification_preferences" p ON p."user_id" = u."id"
       WHERE u."is_active" AND p."email" IS NOT NULL AND p."email_digest"
         AND NOT (u."username" = ANY($1::text[])) ORDER BY u."id"`,
      [this.environment.INSPECTION_SERVICE_ACCOUNTS],
    );
    const due: Array<{ user: number; day: string }> = [];
    for (const person of people) {
      const timeZone = person.time_zone ?? this.environment.INSPECTION_TIME_ZONE;
      const day = localDate(now, timeZone);
      if (digestTime(preferencesOf(person), day, this.environment.INSPECTION_TIME_ZONE) <= now)
        due.push({ user: person.user_id, day });
    }
    if (!due.length) return [];
    const created: Array<{ user_id: number; day: string }> = await db.query(
      `INSERT INTO "notification_digests" ("user_id", "day")
       SELECT (d->>'user')::int, (d->>'day')::date FROM jsonb_array_elements($1::jsonb) d
       ON CONFLICT DO NOTHING RETURNING "user_id", to_char("day", 'YYYY-MM-DD') AS "day"`,
      [JSON.stringify(due)],
    );
    return created.map((row) => ({ user: row.user_id, day: row.day }));
  }

  /** Runs one job: sends a notification or a digest unless already sent; throws to have it retried. */
  async run(job: NotificationJob): Promise<void> {
    if ('notification' in job) await this.sendNotification(job.notification);
    else await this.sendDigest(job.digest.user, job.digest.day);
  }

  private async sendNotification(id: string): Promise<void> {
    const rows: Array<
      PreferenceRow & {
        status: string;
        channel: NotificationChannel;
        type: string;
        data: Record<string, unknown>;
        occurred_at: Date;
      }
    > = await this.dataSource.query(
      `SELECT n."status", n."channel", e."type", e."data", e."occurred_at", ${PREFERENCE_COLUMNS}
       FROM "notifications" n JOIN "events" e ON e."id" = n."event_id" JOIN "users" u ON u."id" = n."user_id"
       LEFT JOIN "notification_preferences" p ON p."user_id" = u."id" WHERE n."id" = $1`,
      [id],
    );
    const row = rows[0];
    if (!row || row.status === 'sent' || row.status === 'cancelled') return;
    // The person may have changed their mind since: not chosen any more, no address, no chat, cancels it.
    const wanted = row.channel === 'chat' ? row.chat !== false : row.email !== null;
    if (!preferencesOf(row).events.includes(row.type) || !wanted) {
      await this.dataSource.query(`UPDATE "notifications" SET "status" = 'cancelled' WHERE "id" = $1`, [id]);
      return;
    }
    const [subject] = await this.subjects([{ type: row.type, data: row.data, occurredAt: row.occurred_at }]);
    if (!subject) return;
    const language = row.language ?? 'en';
    const timeZone = row.time_zone ?? this.environment.INSPECTION_TIME_ZONE;
    const message = notificationMessage(subject, language, timeZone, this.consoleUrl());
    if (row.channel === 'chat') {
      const body = ChatHandover.body(
        id,
        subject,
        { id: row.user_id, username: row.username, role: row.role, language },
        message,
      );
      await this.deliver(`UPDATE "notifications"`, `"id" = $1`, [id], () => this.chat.send(body));
      return;
    }
    const email = notificationEmail([message], language);
    await this.deliver(`UPDATE "notifications"`, `"id" = $1`, [id], () =>
      this.mail.send({ to: row.email ?? '', ...email }),
    );
  }

  private async sendDigest(user: number, day: string): Promise<void> {
    const people: Array<PreferenceRow & { status: string }> = await this.dataSource.query(
      `SELECT d."status", ${PREFERENCE_COLUMNS} FROM "notification_digests" d JOIN "users" u ON u."id" = d."user_id"
       LEFT JOIN "notification_preferences" p ON p."user_id" = u."id" WHERE d."user_id" = $1 AND d."day" = $2::date`,
      [user, day],
    );
    const person = people[0];
    if (!person || person.status !== 'pending') return;
    const where = `"user_id" = $1 AND "day" = $2::date`;
    if (person.email === null || person.email_digest === false) {
      await this.dataSource.query(`UPDATE "notification_digests" SET "status" = 'cancelled' WHERE ${where}`, [
        user,
        day,
      ]);
      return;
    }
    // The person's notifications of the day before the digest (any channel), the newest first.
    const events: Array<{ type: string; data: Record<string, unknown>; occurred_at: Date }> =
      await this.dataSource.query(
        `SELECT e."type", e."data", e."occurred_at" FROM "events" e
         WHERE e."id" IN (SELECT n."event_id" FROM "notifications" n WHERE n."user_id" = $1
           AND n."created_at" > now() - interval '1 day' AND n."status" <> 'cancelled')
         ORDER BY e."id" DESC LIMIT ${DIGEST_LIMIT}`,
        [user],
      );
    if (!events.length) {
      await this.dataSource.query(`UPDATE "notification_digests" SET "status" = 'empty' WHERE ${where}`, [
        user,
        day,
      ]);
      return;
    }
    const language = person.language ?? 'en';
    const timeZone = person.time_zone ?? this.environment.INSPECTION_TIME_ZONE;
    const subjects = await this.subjects(
      events.map((event) => ({ type: event.type, data: event.data, occurredAt: event.occurred_at })),
    );
    const email = notificationEmail(
      subjects.map((subject) => notificationMessage(subject, language, timeZone, this.consoleUrl())),
      language,
      { day },
    );
    await this.deliver(`UPDATE "notification_digests"`, where, [user, day], () =>
      this.mail.send({ to: person.email ?? '', ...email }),
    );
  }

  /** Sends, then records the outcome on the row (`update` … `where`): sent, or the error (and rethrows it). */
  private async deliver(
    update: string,
    where: string,
    parameters: unknown[],
    send: () => Promise<unknown>,
  ): Promise<void> {
    const attempts = update.includes('"notifications"') ? `, "attempts" = "attempts" + 1` : '';
    try {
      await send();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (attempts)
        await this.dataSource.query(
          `${update} SET "last_error" = $${parameters.length + 1}${attempts} WHERE ${where}`,
          [...parameters, message.slice(0, 1000)],
        );
      this.logger.warn({ err: error }, 'notification: sending failed (retried)');
      throw error;
    }
    await this.dataSource.query(
      `${update} SET "status" = 'sent', "sent_at" = now()${attempts} WHERE ${where}`,
      parameters,
    );
  }

  /** The events with the names of the device, item and plan they refer to. */
  private async subjects(
    events: Array<{ type: string; data: Record<string, unknown>; occurredAt: Date }>,
  ): Promise<NotificationSubject[]> {
    const idOf = (value: unknown): number | null =>
      typeof value === 'number'
        ? value
        : value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'number'
          ? (value as { id: number }).id
          : null;
    const refs = events.map((event) => ({
      device: idOf(event.type === 'device.archived' ? null : event.data.device),
      item: idOf(event.data.item),
      plan: idOf(event.data.plan),
    }));
    const names: Array<{ n: number; device: string | null; item: string | null; plan: string | null }> =
      await this.dataSource.query(
        `SELECT r."n"::int AS "n",
           (SELECT d."code" || ' ' || d."name" FROM "devices" d WHERE d."id" = (r."x"->>'device')::int) AS "device",
           (SELECT i."name" FROM "check_items" i WHERE i."id" = (r."x"->>'item')::int) AS "item",
           (SELECT p."name" FROM "check_plans" p WHERE p."id" = (r."x"->>'plan')::int) AS "plan"
         FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY r("x", "n") ORDER BY r."n"`,
        [JSON.stringify(refs)],
      );
    return events.map((event, index) => ({
      type: event.type,
      data: event.data,
      occurredAt: new Date(event.occurredAt),
      names: {
        device: names[index]?.device ?? null,
        item: names[index]?.item ?? null,
        plan: names[index]?.plan ?? null,
      },
    }));
  }

  /** Where emails link to (INSPECTION_CONSOLE_URL, or the public URL's `/console/`), or null. */
  private consoleUrl(): string | null {
    const { INSPECTION_CONSOLE_URL: console, INSPECTION_PUBLIC_URL: publicUrl } = this.environment;
    return console ?? (publicUrl === undefined ? null : `${publicUrl}/console/`);
  }
}
