import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { LOGGER, type Logger } from '@fieldops/platform';
import PgBoss from 'pg-boss';
import { DataSource, type EntityManager } from 'typeorm';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { type NotificationJob, NotificationsService } from '../notifications/notifications.service';
import { type MonthlyReportJob, MonthlyReports } from '../report-subscriptions/monthly-reports.service';
import { WebhookDeliveriesService } from '../webhooks/webhook-deliveries.service';
import { retryLimitFor } from '../webhooks/webhook-retries';
import { ScheduledEvents } from './scheduled-events';

/** The PostgreSQL the job runner connects to (the API's own database; pg-boss keeps its tables in `pgboss`). */
export const EVENTS_DATABASE_URL = Symbol('EVENTS_DATABASE_URL');
export const JOB_SCHEMA = 'pgboss';
export const WEBHOOK_QUEUE = 'webhook-delivery';
/** Notifications to people (email) and daily digests, each a job started at its time. */
export const NOTIFICATION_QUEUE = 'notification';
/** Monthly reports of the report subscriptions, a job per send. */
export const MONTHLY_REPORT_QUEUE = 'monthly-report';
/** Retries of a monthly report: about 5, 10, 20 … 160 minutes apart (over five hours), then it is left failed. */
const MONTHLY_REPORT_RETRIES = 6;
/** Attempts of a notification: about 1, 2, 4 … 64 minutes apart (two hours), then it is left failed. */
const NOTIFICATION_RETRIES = 7;
/** Events taken from the outbox per transaction. */
const DISPATCH_BATCH = 200;
/** pg-boss workers per replica; each fetches up to DELIVERY_BATCH jobs per poll and sends them concurrently. */
const DELIVERY_WORKERS = 2;
const DELIVERY_BATCH = 10;
/** How often an idle worker polls for jobs; a dispatch on this replica wakes its workers at once. */
const DELIVERY_POLL_SECONDS = 0.5;
/** Attempts at declaring a queue when PostgreSQL picks it as a deadlock's victim (replicas starting together). */
const DECLARE_QUEUE_ATTEMPTS = 5;

/**
 * Creates the queue if it is missing and sets its options. Replicas starting together declare the same queues while
 * each one's job runner already maintains its tables: pg-boss's `create_queue` (a partition attached to the job table)
 * can then deadlock with another replica's, and PostgreSQL aborts one of them (`40P01`). The loser tries again after
 * a short pause: the queue is there by then, or its declaration goes through.
 */
async function declareQueue(boss: PgBoss, queue: PgBoss.Queue): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await boss.createQueue(queue.name, queue);
      await boss.updateQueue(queue.name, queue);
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== '40P01' || attempt >= DECLARE_QUEUE_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt + Math.floor(Math.random() * 100)));
    }
  }
}

/**
 * The event runner, on PostgreSQL (docs/decisions/events-on-postgresql.md). Each replica polls the outbox: in one
 * transaction it locks undispatched events (`FOR UPDATE SKIP LOCKED`, so replicas share them and never take the
 * same), writes a delivery per interested webhook endpoint, enqueues a pg-boss job per delivery (with the same
 * transaction's connection) and marks the events dispatched. A crash before the commit leaves the events to the
 * next poll; after it, the jobs are in PostgreSQL. pg-boss's workers then attempt the deliveries, each job held by
 * one worker at a time, retried with exponential backoff.
 */
@Injectable()
export class EventRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private boss: PgBoss | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private scheduleTimer: NodeJS.Timeout | undefined;
  private scheduling: Promise<void> | undefined;
  private stopping = false;
  private readonly workerIds: string[] = [];
  /** Why the runner is not healthy (shown in `/readyz`): not started, or its last dispatch / schedule run failed. */
  private readonly failures = new Map<'start' | 'dispatch' | 'schedule', string>([['start', 'not started']]);

  constructor(
    private readonly dataSource: DataSource,
    private readonly environment: InspectionApiEnvironment,
    private readonly deliveries: WebhookDeliveriesService,
    private readonly scheduled: ScheduledEvents,
    private readonly notifications: NotificationsService,
    private readonly monthlyReports: MonthlyReports,
    @Inject(EVENTS_DATABASE_URL) private readonly databaseUrl: string,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** `/readyz`'s advisory `events` check: throws while the runner is not started or its last dispatch failed. */
  health(): Promise<void> {
    return this.failures.size
      ? Promise.reject(new Error(`event runner: ${[...this.failures.values()].join('; ')}`))
      : Promise.resolve();
  }

  async onApplicationBootstrap(): Promise<void> {
    const environment = this.environment;
    if (!environment.INSPECTION_EVENTS_RUNNER) {
      this.logger.info('event runner off in this process (INSPECTION_EVENTS_RUNNER=false)');
      return;
    }
    const boss = new PgBoss({
      connectionString: this.databaseUrl,
      schema: JOB_SCHEMA,
      // A connection for each polling worker (the webhook workers, notifications, monthly reports) and one for the
      // runner's own statements: a worker left waiting for a connection when the runner stops never ends its loop.
      max: DELIVERY_WORKERS + 3,
      application_name: 'inspection-api-events',
      schedule: false,
    });
    boss.on('error', (error) => this.logger.error({ err: error }, 'event runner: job runner error'));
    await boss.start();
    const queue = {
      name: WEBHOOK_QUEUE,
      retryLimit: retryLimitFor(
        environment.INSPECTION_WEBHOOK_RETRY_DELAY_SECONDS,
        environment.INSPECTION_WEBHOOK_RETRY_WINDOW_SECONDS,
      ),
      retryDelay: environment.INSPECTION_WEBHOOK_RETRY_DELAY_SECONDS,
      retryBackoff: true,
      // An attempt still "active" after this (its replica died mid-attempt) is failed and retried.
      expireInSeconds: Math.ceil(environment.INSPECTION_WEBHOOK_TIMEOUT_MS / 1000) + 60,
    };
    await declareQueue(boss, queue);
    const notificationQueue = {
      name: NOTIFICATION_QUEUE,
      retryLimit: NOTIFICATION_RETRIES,
      retryDelay: 60,
      retryBackoff: true,
      expireInSeconds: Math.ceil(environment.INSPECTION_SMTP_TIMEOUT_MS / 1000) * 3 + 60,
    };
    await declareQueue(boss, notificationQueue);
    const monthlyReportQueue = {
      name: MONTHLY_REPORT_QUEUE,
      retryLimit: MONTHLY_REPORT_RETRIES,
      retryDelay: 300,
      retryBackoff: true,
      // Writing a large month's PDF and sending it; a replica that died mid-send is retried after this.
      expireInSeconds: Math.ceil(environment.INSPECTION_SMTP_TIMEOUT_MS / 1000) * 3 + 600,
    };
    await declareQueue(boss, monthlyReportQueue);
    this.workerIds.push(
      await boss.work<MonthlyReportJob>(
        MONTHLY_REPORT_QUEUE,
        { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: DELIVERY_POLL_SECONDS },
        async ([job]) => {
          if (job) await this.monthlyReports.send(job.data, job.retryCount >= job.retryLimit);
        },
      ),
    );
    this.workerIds.push(
      await boss.work<NotificationJob>(
        NOTIFICATION_QUEUE,
        { batchSize: 1, pollingIntervalSeconds: DELIVERY_POLL_SECONDS },
        async ([job]) => {
          if (job) await this.notifications.run(job.data);
        },
      ),
    );
    for (let worker = 0; worker < DELIVERY_WORKERS; worker += 1) {
      let workerId = '';
      workerId = await boss.work<{ delivery: string }>(
        WEBHOOK_QUEUE,
        { batchSize: DELIVERY_BATCH, includeMetadata: true, pollingIntervalSeconds: DELIVERY_POLL_SECONDS },
        async (jobs) => {
          await this.attemptBatch(boss, jobs);
          // A full batch: more are likely waiting, so fetch again now instead of after the polling interval.
          if (jobs.length === DELIVERY_BATCH) boss.notifyWorker(workerId);
        },
      );
      this.workerIds.push(workerId);
    }
    this.boss = boss;
    this.failures.delete('start');
    this.logger.info(
      { retryLimit: queue.retryLimit, pollMs: environment.INSPECTION_EVENTS_POLL_MS },
      'event runner started',
    );
    this.schedule(0);
    this.scheduleRun(0);
  }

  /**
   * Attempts a batch's deliveries concurrently. pg-boss completes every job of a batch whose handler resolves, or
   * fails them all when it throws; so the failed ones are failed here, one by one (each retried on its own
   * schedule), and the handler resolves, which completes only the jobs still active: the delivered ones.
   */
  private async attemptBatch(
    boss: PgBoss,
    jobs: Array<PgBoss.JobWithMetadata<{ delivery: string }>>,
  ): Promise<void> {
    const outcomes = await Promise.allSettled(
      jobs.map((job) => this.deliveries.attempt(job.data.delivery, job.retryCount >= job.retryLimit)),
    );
    await Promise.all(
      outcomes.map(async (outcome, index) => {
        const job = jobs[index];
        if (outcome.status === 'fulfilled' || !job) return;
        const error: unknown = outcome.reason;
        await boss.fail(WEBHOOK_QUEUE, job.id, {
          message: error instanceof Error ? error.message : String(error),
        });
      }),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    clearTimeout(this.scheduleTimer);
    await Promise.all([this.ticking, this.scheduling]);
    await this.boss?.stop({ graceful: true, wait: true, timeout: 10_000 });
    this.boss = undefined;
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick();
    }, delayMs);
  }

  private async tick(): Promise<void> {
    let taken = 0;
    try {
      const { events, deliveries } = await this.dispatch();
      taken = events;
      this.failures.delete('dispatch');
      // The jobs are committed: wake this replica's workers rather than wait for their next poll.
      if (deliveries) for (const id of this.workerIds) this.boss?.notifyWorker(id);
    } catch (error) {
      this.failures.set(
        'dispatch',
        `dispatch failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      this.logger.error({ err: error }, 'event runner: dispatch failed (retried at the next poll)');
    }
    this.ticking = undefined;
    this.schedule(taken === DISPATCH_BATCH ? 0 : this.environment.INSPECTION_EVENTS_POLL_MS);
  }

  private scheduleRun(delayMs: number): void {
    if (this.stopping) return;
    this.scheduleTimer = setTimeout(() => {
      this.scheduling = this.runSchedule();
    }, delayMs);
  }

  /** The schedule's events (due, overdue), by one replica per interval; then the outbox poll hands them on. */
  private async runSchedule(): Promise<void> {
    const interval = this.environment.INSPECTION_SCHEDULED_EVENTS_INTERVAL_MS;
    try {
      if (await this.scheduled.claim(interval)) {
        const written = await this.scheduled.run();
        if (written) this.logger.info({ events: written }, 'event runner: scheduled events written');
        await this.planDigests();
        await this.planMonthlyReports();
      }
      this.failures.delete('schedule');
    } catch (error) {
      this.failures.set(
        'schedule',
        `scheduled events failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      this.logger.error({ err: error }, 'event runner: scheduled events failed (tried again next interval)');
    }
    this.scheduling = undefined;
    this.scheduleRun(interval);
  }

  /** The daily digests whose time has come: a row each and its job, in one transaction. */
  private async planDigests(): Promise<void> {
    const boss = this.boss;
    if (!boss) return;
    const digests = await this.dataSource.transaction(async (manager) => {
      const due = await this.notifications.planDigests(manager);
      if (due.length)
        await boss.insert(
          due.map((digest) => ({ name: NOTIFICATION_QUEUE, data: { digest } satisfies NotificationJob })),
          { db: inTransaction(manager) },
        );
      return due.length;
    });
    if (digests) this.logger.info({ digests }, 'event runner: daily digests queued');
  }

  /** The monthly reports whose time has come: a send row each and its job, in one transaction. */
  private async planMonthlyReports(): Promise<void> {
    const boss = this.boss;
    if (!boss) return;
    const sends = await this.dataSource.transaction(async (manager) => {
      const planned = await this.monthlyReports.plan(manager);
      if (planned.length)
        await boss.insert(
          planned.map((send) => ({ name: MONTHLY_REPORT_QUEUE, data: { send } satisfies MonthlyReportJob })),
          { db: inTransaction(manager) },
        );
      return planned.length;
    });
    if (sends) this.logger.info({ sends }, 'event runner: monthly reports queued');
  }

  /** One transaction: take undispatched events, fan them out to deliveries and jobs, mark them dispatched. */
  async dispatch(): Promise<{ events: number; deliveries: number }> {
    const boss = this.boss;
    if (!boss) return { events: 0, deliveries: 0 };
    return this.dataSource.transaction(async (manager) => {
      const events: Array<{ id: string }> = await manager.query(
        `SELECT "id" FROM "events" WHERE "dispatched_at" IS NULL ORDER BY "id" LIMIT ${DISPATCH_BATCH} FOR UPDATE SKIP LOCKED`,
      );
      if (!events.length) return { events: 0, deliveries: 0 };
      const ids = events.map((event) => event.id);
      const deliveries = await this.deliveries.fanOut(manager, ids);
      if (deliveries.length)
        await boss.insert(
          deliveries.map((id) => ({ id, name: WEBHOOK_QUEUE, data: { delivery: id } })),
          { db: inTransaction(manager) },
        );
      const notifications = await this.notifications.fanOut(manager, ids);
      if (notifications.length)
        await boss.insert(
          notifications.map(({ id, sendAt }) => ({
            name: NOTIFICATION_QUEUE,
            data: { notification: id } satisfies NotificationJob,
            startAfter: sendAt,
          })),
          { db: inTransaction(manager) },
        );
      await manager.query(`UPDATE "events" SET "dispatched_at" = now() WHERE "id" = ANY($1::bigint[])`, [
        ids,
      ]);
      return { events: events.length, deliveries: deliveries.length };
    });
  }
}

/** pg-boss's database adapter over a TypeORM transaction, so its jobs commit with the transaction's rows. */
function inTransaction(manager: EntityManager) {
  const runner = manager.queryRunner;
  if (!runner) throw new Error('a transaction has a query runner');
  return {
    executeSql: async (text: string, values: unknown[]) => ({
      rows: (await runner.query(text, values, true)).records as unknown[],
    }),
  };
}
