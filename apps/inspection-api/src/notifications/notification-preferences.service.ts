import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Input, readDrfBoolean } from '../drf/serializer';
import { type FieldErrors, isFieldErrors, notFound, validationError } from '../drf/exceptions';
import { EVENT_TYPES, type EventType } from '../events/event-types';
import { type Role } from '../users/role';
import { pythonStr, pythonTypeName } from '../drf/python-text';

/** `GET /api/users/me/notifications/` (docs/protocols/notifications.md). */
export interface NotificationPreferencesBody {
  user: number;
  events: EventType[];
  quiet_hours_start: string | null;
  quiet_hours_end: string | null;
  time_zone: string | null;
  reminder_time: string | null;
  /** Where notification emails go; null: no email. */
  email: string | null;
  /** The language of messages (`en`, `zh-CN`); null: English. */
  language: NotificationLanguage | null;
  /** Whether a daily digest email is sent (with an `email`). */
  email_digest: boolean;
  /** Whether the chosen events are also sent in the chat (by the inspection bot). */
  chat: boolean;
  /** null until the person changed anything (the defaults of their role). */
  updated_at: string | null;
}

/** What each role receives until the person chooses. */
export const DEFAULT_EVENTS: Record<Role, readonly EventType[]> = {
  inspector: ['check.due', 'check.overdue', 'action.assigned', 'action.overdue'],
  supervisor: ['record.failed', 'check.overdue', 'action.overdue', 'action.done'],
};

/** The languages notifications are written in. */
export const NOTIFICATION_LANGUAGES = ['en', 'zh-CN'] as const;
export type NotificationLanguage = (typeof NOTIFICATION_LANGUAGES)[number];

/** An address DRF's EmailField accepts, in short: one `@`, no spaces or brackets, a dotted domain. */
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/;
const MAX_EMAIL_LENGTH = 254;

/** Whether `value` is an email address DRF's EmailField accepts (already trimmed). */
export function isEmailAddress(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && EMAIL.test(value);
}

const TIME_FIELDS = ['quiet_hours_start', 'quiet_hours_end', 'reminder_time'] as const;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,6})?)?$/;
const TIME_FORMAT = 'Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].';
const BOTH_QUIET_BOUNDS = 'Set both quiet_hours_start and quiet_hours_end, or neither.';

/** Whether the runtime knows an IANA zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The JSON or form input as field → value (a form's `events` may repeat). */
function fieldsOf(input: Input): Record<string, unknown> | undefined {
  if (input.kind === 'json')
    return input.data !== null && typeof input.data === 'object' && !Array.isArray(input.data)
      ? (input.data as Record<string, unknown>)
      : undefined;
  const fields: Record<string, unknown> = {};
  for (const [name, values] of input.data)
    fields[name] = name === 'events' ? values : (values[values.length - 1] ?? '');
  return fields;
}

/**
 * Notification preferences per person: which events, quiet hours, time zone, reminder time. The DRF shape of a
 * singleton resource (GET, PUT, PATCH); field errors as DRF's MultipleChoiceField, TimeField and TimeZoneField word
 * them. When each notification goes out is `notification-schedule.ts`'s.
 */
@Injectable()
export class NotificationPreferencesService {
  constructor(private readonly dataSource: DataSource) {}

  async find(userId: number): Promise<NotificationPreferencesBody> {
    const rows: Array<NotificationPreferencesBody & { role: Role }> = await this.dataSource.query(
      `SELECT u."id" AS "user", u."role", p."events", to_char(p."quiet_hours_start", 'HH24:MI:SS') AS "quiet_hours_start",
          to_char(p."quiet_hours_end", 'HH24:MI:SS') AS "quiet_hours_end", p."time_zone",
          to_char(p."reminder_time", 'HH24:MI:SS') AS "reminder_time", p."email", p."language",
          COALESCE(p."email_digest", true) AS "email_digest", COALESCE(p."chat", true) AS "chat",
          to_char(p."updated_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "updated_at"
        FROM "users" u LEFT JOIN "notification_preferences" p ON p."user_id" = u."id" WHERE u."id" = $1`,
      [userId],
    );
    const row = rows[0];
    if (!row) throw notFound();
    const { role, ...body } = row;
    return {
      ...body,
      // In the order of EVENT_TYPES, whatever order they were chosen in.
      events: EVENT_TYPES.filter((type) => (body.events ?? DEFAULT_EVENTS[role]).includes(type)),
    };
  }

  /** PUT (`partial` false: `events` is required) or PATCH. */
  async update(userId: number, input: Input, partial: boolean): Promise<NotificationPreferencesBody> {
    const current = await this.find(userId);
    const fields = fieldsOf(input);
    if (!fields)
      throw validationError({
        non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonTypeName(input.data)}.`],
      });
    const errors: FieldErrors = {};
    const next = { ...current };
    if ('events' in fields) {
      const events: unknown = fields.events;
      if (!Array.isArray(events))
        errors.events = [`Expected a list of items but got type "${pythonTypeName(events)}".`];
      else {
        const list: unknown[] = events;
        const wrong = list.find((event) => !(EVENT_TYPES as readonly unknown[]).includes(event));
        if (wrong !== undefined) errors.events = [`"${pythonStr(wrong)}" is not a valid choice.`];
        else next.events = EVENT_TYPES.filter((type) => list.includes(type));
      }
    } else if (!partial) errors.events = ['This field is required.'];
    for (const name of TIME_FIELDS) {
      if (!(name in fields)) {
        if (!partial) next[name] = null;
        continue;
      }
      const value = fields[name];
      if (value === null || value === '') next[name] = null;
      else {
        const match = typeof value === 'string' ? TIME.exec(value.trim()) : null;
        if (!match) errors[name] = [TIME_FORMAT];
        else next[name] = `${match[1]}:${match[2]}:${match[3] ?? '00'}`;
      }
    }
    if ('time_zone' in fields) {
      const value = fields.time_zone;
      if (value === null || value === '') next.time_zone = null;
      else if (typeof value !== 'string' || !isTimeZone(value.trim()))
        errors.time_zone = ['A valid timezone is required.'];
      else next.time_zone = value.trim();
    } else if (!partial) next.time_zone = null;
    if ('email' in fields) {
      const value = fields.email;
      if (value === null || value === '') next.email = null;
      else if (typeof value !== 'string' || !isEmailAddress(value.trim()))
        errors.email = ['Enter a valid email address.'];
      else next.email = value.trim();
    } else if (!partial) next.email = null;
    if ('language' in fields) {
      const value = fields.language;
      if (value === null || value === '') next.language = null;
      else if (!(NOTIFICATION_LANGUAGES as readonly unknown[]).includes(value))
        errors.language = [`"${pythonStr(value)}" is not a valid choice.`];
      else next.language = value as NotificationLanguage;
    } else if (!partial) next.language = null;
    if ('email_digest' in fields) {
      const value = readDrfBoolean(fields.email_digest);
      if (value === undefined) errors.email_digest = ['Must be a valid boolean.'];
      else next.email_digest = value;
    } else if (!partial) next.email_digest = true;
    if ('chat' in fields) {
      const value = readDrfBoolean(fields.chat);
      if (value === undefined) errors.chat = ['Must be a valid boolean.'];
      else next.chat = value;
    } else if (!partial) next.chat = true;
    if (!isFieldErrors(errors) && (next.quiet_hours_start === null) !== (next.quiet_hours_end === null))
      errors.non_field_errors = [BOTH_QUIET_BOUNDS];
    if (isFieldErrors(errors)) throw validationError(errors);
    await this.dataSource.query(
      `INSERT INTO "notification_preferences" ("user_id", "events", "quiet_hours_start", "quiet_hours_end", "time_zone", "reminder_time", "email", "language", "email_digest", "chat", "updated_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now())
       ON CONFLICT ("user_id") DO UPDATE SET "events" = EXCLUDED."events", "quiet_hours_start" = EXCLUDED."quiet_hours_start",
         "quiet_hours_end" = EXCLUDED."quiet_hours_end", "time_zone" = EXCLUDED."time_zone",
         "reminder_time" = EXCLUDED."reminder_time", "email" = EXCLUDED."email", "language" = EXCLUDED."language",
         "email_digest" = EXCLUDED."email_digest", "chat" = EXCLUDED."chat", "updated_at" = now()`,
      [
        userId,
        next.events,
        next.quiet_hours_start,
        next.quiet_hours_end,
        next.time_zone,
        next.reminder_time,
        next.email,
        next.language,
        next.email_digest,
        next.chat,
      ],
    );
    return this.find(userId);
  }
}
