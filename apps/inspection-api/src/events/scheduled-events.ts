import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { actionOverdueSql } from '../actions/action-transitions';
import { ActionsService } from '../actions/actions.service';
import { type DueStatus } from '../due/due-rules';
import { DueService } from '../due/due.service';
import { EventOutbox, type Occurrence } from './event-outbox';
import { EVENT_SUBJECTS } from './event-types';

/** Checks read per statement. */
const PAGE_SIZE = 500;
const RUN_NAME = 'scheduled-events';

/** A check as `GET /api/due/` lists it (the fields the events need; `data` is the whole object). */
interface DueCheck {
  plan: { id: number };
  device: { id: number };
  item: { id: number } | null;
  status: DueStatus;
  period_start: string;
  period_end: string;
}

/**
 * The events of the runner's schedule: `check.due` and `check.overdue` for the checks the due rules classify so
 * today (DueService, whose statements apply `due-rules.ts`), `action.overdue` for the actions `actionOverdueSql`
 * says are. Each is emitted once per occurrence (a check's period, an action's due date) through
 * `EventOutbox.emitOnce`, whatever the number of replicas and restarts. Its `data` is the check as `/api/due/`
 * shows it, or the action as its other events show it.
 */
@Injectable()
export class ScheduledEvents {
  constructor(
    private readonly dataSource: DataSource,
    private readonly due: DueService,
    private readonly actions: ActionsService,
    private readonly outbox: EventOutbox,
  ) {}

  /**
   * Takes this interval's run unless a replica took one less than `intervalMs` ago (then answers false, and the
   * caller skips: the work is done once per interval, not once per replica).
   */
  async claim(intervalMs: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO "scheduled_runs" ("name", "ran_at") VALUES ($1, now())
       ON CONFLICT ("name") DO UPDATE SET "ran_at" = now()
       WHERE "scheduled_runs"."ran_at" <= now() - $2::int * interval '1 millisecond'
       RETURNING 1`,
      [RUN_NAME, Math.floor(intervalMs * 0.9)],
    );
    return rows.length > 0;
  }

  /** One run: emits what became due or overdue and was not told yet. Returns the number of events written. */
  async run(now = new Date()): Promise<number> {
    const today = this.due.today(now);
    let written = 0;
    for (const status of ['due', 'overdue'] as const) {
      for (let page = 1; ; page += 1) {
        const { count, results } = await this.due.page({ date: today, status }, { page, size: PAGE_SIZE });
        const checks = JSON.parse(results) as DueCheck[];
        written += await this.dataSource.transaction((db) =>
          this.outbox.emitOnce(
            db,
            status === 'due' ? 'check.due' : 'check.overdue',
            checks.map((check) => checkOccurrence(check)),
          ),
        );
        if (page * PAGE_SIZE >= count) break;
      }
    }
    const action = EVENT_SUBJECTS.action;
    if (!action) throw new Error('actions are an event subject');
    const overdue: Array<{ id: number; due_date: string; data: unknown }> = await this.dataSource.query(
      `SELECT x."id", to_char(x."due_date", 'YYYY-MM-DD') AS "due_date", ${action.json} AS "data"
       FROM "actions" x WHERE x."id" IN (SELECT a."id" FROM "actions" a WHERE ${actionOverdueSql('$1')}) ORDER BY x."id"`,
      [this.actions.today(now)],
    );
    written += await this.dataSource.transaction(async (db) => {
      const count = await this.outbox.emitOnce(
        db,
        'action.overdue',
        overdue.map((action) => ({
          subject: `action:${action.id}`,
          occurrence: action.due_date,
          expiresOn: null,
          data: action.data,
        })),
      );
      await this.outbox.forgetExpired(db, today);
      return count;
    });
    return written;
  }
}

/** A check's occurrence: the check (plan, device, item) in its current period; over when the period ends. */
export function checkOccurrence(check: DueCheck): Occurrence {
  return {
    subject: `check:${check.plan.id}:${check.device.id}:${check.item?.id ?? 'device'}`,
    occurrence: check.period_start,
    expiresOn: check.period_end,
    data: check,
  };
}
