import { Injectable } from '@nestjs/common';
import { type EntityManager } from 'typeorm';
import { EVENT_SUBJECTS, type EventType } from './event-types';

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
}
