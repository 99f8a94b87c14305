import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { LOGGER, type Logger } from '@fieldops/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { sqlState } from '../database/sql';
import { DrfException } from '../drf/exceptions';
import { type WriteIdentity } from '../drf/resource-routes';
import { idempotencyKeyOf } from './idempotency-key';

/** What an idempotent write made: its status and body, and what to do once its transaction is committed. */
export interface WriteResult {
  status: number;
  body: unknown;
  afterCommit?: () => Promise<void>;
}

/** Where a write runs: the pool, or the transaction that also holds its key. */
export type WriteDatabase = DataSource | EntityManager;

/** 422: the key was used for another request (the IETF draft's status), in DRF's `{"detail"}` body. */
export const keyReused = (): DrfException =>
  new DrfException(422, {
    detail: 'This Idempotency-Key was already used with a different request.',
  });

/** 409: the first request with this key is still running after the wait (the IETF draft's status). */
export const keyInProgress = (): DrfException =>
  new DrfException(409, {
    detail: 'A request with this Idempotency-Key is still being processed. Retry later.',
  });

/** How long a repeat waits for the first request with its key to finish. */
const WAIT_FOR_FIRST = '15s';
/** How often expired keys are deleted. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * The one owner of `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header) on inspection-api's writes.
 *
 * A key is scoped to the authenticated user and kept in PostgreSQL (`idempotency_keys`) for
 * INSPECTION_IDEMPOTENCY_KEY_HOURS, so it holds across replicas and restarts. The first request with a key claims it
 * by inserting its row in the same transaction as the write; the write's response is stored in that row before the
 * commit, so the record and its key commit together or not at all. A concurrent repeat blocks on the row's unique
 * index until the first commits (then replays it) or rolls back (then runs itself). A write that fails (a 4xx, an
 * outage) stores nothing: the same key may be retried. A repeat of a stored key replays the first status and body
 * (with `Idempotent-Replayed: true`); the same key with another method, path, body or file is 422.
 */
@Injectable()
export class IdempotencyService implements OnModuleInit, OnModuleDestroy {
  private purgeTimer: NodeJS.Timeout | undefined;
  private readonly retentionSeconds: number;

  constructor(
    private readonly dataSource: DataSource,
    environment: InspectionApiEnvironment,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.retentionSeconds = environment.INSPECTION_IDEMPOTENCY_KEY_HOURS * 3600;
  }

  onModuleInit(): void {
    void this.purge();
    this.purgeTimer = setInterval(() => void this.purge(), PURGE_EVERY_MS);
    this.purgeTimer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.purgeTimer);
  }

  /** Deletes the keys older than the retention; returns how many. */
  async purge(): Promise<number> {
    try {
      const [, count] = await this.dataSource.query<[unknown, number]>(
        `DELETE FROM "idempotency_keys" WHERE "created_at" < now() - make_interval(secs => $1)`,
        [this.retentionSeconds],
      );
      if (count) this.logger.info({ count }, 'expired idempotency keys deleted');
      return count;
    } catch (error) {
      this.logger.warn({ reason: (error as Error).message }, 'idempotency key purge failed');
      return 0;
    }
  }

  /**
   * Runs `work` once per key: without an `Idempotency-Key` header, simply runs it; with one, runs it in a
   * transaction holding the key, or replays the stored result of an earlier request with the same key.
   * `fingerprint` identifies the request (`requestFingerprint`).
   */
  async once(
    write: WriteIdentity | undefined,
    fingerprint: () => string,
    work: (db: WriteDatabase) => Promise<WriteResult>,
  ): Promise<unknown> {
    const key = write && idempotencyKeyOf(write.idempotencyKey);
    if (key === undefined) {
      const result = await work(this.dataSource);
      await result.afterCommit?.();
      return result.body;
    }
    const digest = fingerprint();
    const scope = write?.userId ?? 0;
    let outcome: { replayed: true; body: unknown } | { replayed: false; result: WriteResult };
    try {
      outcome = await this.dataSource.transaction(async (manager) => {
        await manager.query(`SET LOCAL lock_timeout = '${WAIT_FOR_FIRST}'`);
        const claimed: unknown[] = await manager.query(
          `INSERT INTO "idempotency_keys" ("user_id", "key", "fingerprint") VALUES ($1, $2, $3)
           ON CONFLICT ("user_id", "key") DO UPDATE
             SET "fingerprint" = EXCLUDED."fingerprint", "status" = NULL, "body" = NULL, "created_at" = now()
             WHERE "idempotency_keys"."created_at" < now() - make_interval(secs => $4)
           RETURNING 1`,
          [scope, key, digest, this.retentionSeconds],
        );
        if (claimed.length === 0) {
          const rows: Array<{ fingerprint: string; body: string | null }> = await manager.query(
            'SELECT "fingerprint", "body" FROM "idempotency_keys" WHERE "user_id" = $1 AND "key" = $2',
            [scope, key],
          );
          const row = rows[0];
          if (!row || row.body === null) throw keyInProgress();
          if (row.fingerprint !== digest) throw keyReused();
          return { replayed: true as const, body: JSON.parse(row.body) as unknown };
        }
        const result = await work(manager);
        await manager.query(
          'UPDATE "idempotency_keys" SET "status" = $3, "body" = $4 WHERE "user_id" = $1 AND "key" = $2',
          [scope, key, result.status, JSON.stringify(result.body)],
        );
        return { replayed: false as const, result };
      });
    } catch (error) {
      // 55P03: the first request still holds the key after the wait.
      if (sqlState(error) === '55P03') throw keyInProgress();
      throw error;
    }
    if (outcome.replayed) {
      write?.markReplayed();
      return outcome.body;
    }
    await outcome.result.afterCommit?.();
    return outcome.result.body;
  }
}
