import { Injectable } from '@nestjs/common';
import { type EntityManager } from 'typeorm';
import { EVENT_SUBJECTS, type EventType, type ScheduledEventType } from './event-types';

/** One occurrence of a scheduled event: what it is about, which time (a period's first day, a due date), its data. */
export interface Occurrence {
  subject: string;
  occurrence: string;
  /** The day after which the occurrence cannot come round again (its notice is then dropped); null: kept. */
  expiresOn: string | null;
  data: unknown;
}

/**
 * The one way a domain event is emitted: a row of the `events` outbox, written with the caller's transaction
 * (`db` is the transaction's manager), so the event exists exactly when the change committed. The runner
 * (EventRunner) hands it on afterwards. Every type of one call is about the same subject row.
 */
@Injectable()
export class EventOutbox {
  async emit(db: EntityManager, types: readonly EventType[], subjectId: number): Promise<void> {
    if (!types.length) return;
    const names = new Set(types.map((type) => type.split('.')[0] ?? ''));
    const [name] = names;
    const subject = name === undefined ? undefined : EVENT_SUBJECTS[name];
    if (!subject || names.size > 1)
      throw new Error(`events of one call are about one subject: ${types.join(', ')}`);
    await db.query(
      `INSERT INTO "events" ("type", "data")
       SELECT t."type", ${subject.json} FROM unnest($1::text[]) WITH ORDINALITY t("type", "n"), "${subject.table}" x
       WHERE x."id" = $2 ORDER BY t."n"`,
      [types, subjectId],
    );
  }

  /**
   * Emits a scheduled event once per occurrence: its notice (type, subject, occurrence) is written with the event,
   * in the caller's transaction, and an occurrence already noticed (by this replica or another, before a restart or
   * not) emits nothing. Returns how many events were written.
   */
  async emitOnce(
    db: EntityManager,
    type: ScheduledEventType,
    occurrences: readonly Occurrence[],
  ): Promise<number> {
    if (!occurrences.length) return 0;
    const rows: Array<{ written: number }> = await db.query(
      `WITH "input" AS (
         SELECT e."x"->>'subject' AS "subject", e."x"->>'occurrence' AS "occurrence",
           (e."x"->>'expires_on')::date AS "expires_on", e."x"->'data' AS "data", e."n"
         FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY e("x", "n")
       ), "fresh" AS (
         INSERT INTO "event_notices" ("type", "subject", "occurrence", "expires_on")
         SELECT $1, i."subject", i."occurrence", i."expires_on" FROM "input" i ORDER BY i."n"
         ON CONFLICT DO NOTHING RETURNING "subject", "occurrence"
       ), "written" AS (
         INSERT INTO "events" ("type", "data")
         SELECT $1, i."data" FROM "input" i JOIN "fresh" f USING ("subject", "occurrence") ORDER BY i."n"
         RETURNING 1
       )
       SELECT count(*)::int AS "written" FROM "written"`,
      [
        type,
        JSON.stringify(
          occurrences.map(({ subject, occurrence, expiresOn, data }) => ({
            subject,
            occurrence,
            expires_on: expiresOn,
            data,
          })),
        ),
      ],
    );
    return rows[0]?.written ?? 0;
  }

  /** Drops the notices of occurrences that cannot come round again (expired before `today`). */
  async forgetExpired(db: EntityManager, today: string): Promise<void> {
    await db.query(`DELETE FROM "event_notices" WHERE "expires_on" < $1::date`, [today]);
  }
}
