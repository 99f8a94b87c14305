import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Slots of the tally: concurrent commits add to different rows, so they never queue on one. */
export const AUDIT_TALLY_SLOTS = 16;

/**
 * The number of audit entries, kept exact so that the unfiltered `/api/audit/` page reads its `count` from
 * `AUDIT_TALLY_SLOTS` small rows instead of counting the whole trail (`auditPageSql`). The trail is append-only, so
 * only inserts change it. Each inserted entry adds one to a transaction-local setting (`fieldops.audit_added`, rolled
 * back with a savepoint as the entry is); a deferred trigger adds the total to one unlocked slot once, when the
 * transaction commits (a bulk insert of 100,000 entries is one update, not 100,000 updates of one row). The slot is
 * taken with SKIP LOCKED, and it is the transaction's last lock, so two commits never wait on each other for it
 * unless every slot is in use.
 */
export class TallyAuditEntries1732929000000 implements MigrationInterface {
  name = 'TallyAuditEntries1732929000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "audit_entry_tally" (
      "slot" smallint PRIMARY KEY,
      "entries" bigint NOT NULL DEFAULT 0
    )`);
    await queryRunner.query(`CREATE FUNCTION "audit_tally_add"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM set_config('fieldops.audit_added',
          (COALESCE(nullif(current_setting('fieldops.audit_added', true), ''), '0')::bigint + 1)::text, true);
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE FUNCTION "audit_tally_flush"() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        added bigint := COALESCE(nullif(current_setting('fieldops.audit_added', true), ''), '0')::bigint;
      BEGIN
        IF added = 0 THEN RETURN NULL; END IF;
        PERFORM set_config('fieldops.audit_added', '0', true);
        UPDATE "audit_entry_tally" SET "entries" = "entries" + added
          WHERE "slot" = (SELECT t."slot" FROM "audit_entry_tally" t LIMIT 1 FOR UPDATE SKIP LOCKED);
        IF NOT FOUND THEN
          UPDATE "audit_entry_tally" SET "entries" = "entries" + added
            WHERE "slot" = pg_backend_pid() % ${AUDIT_TALLY_SLOTS};
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "audit_entries_tally_add" AFTER INSERT ON "audit_entries"
      FOR EACH ROW EXECUTE FUNCTION "audit_tally_add"()`);
    await queryRunner.query(`CREATE CONSTRAINT TRIGGER "audit_entries_tally_flush" AFTER INSERT ON "audit_entries"
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "audit_tally_flush"()`);
    // Counted under a lock that lets readers in and keeps writers out until the migration commits.
    await queryRunner.query(`LOCK TABLE "audit_entries" IN SHARE MODE`);
    await queryRunner.query(
      `INSERT INTO "audit_entry_tally" ("slot", "entries")
        SELECT g, CASE WHEN g = 0 THEN (SELECT count(*) FROM "audit_entries") ELSE 0 END
        FROM generate_series(0, ${AUDIT_TALLY_SLOTS - 1}) g`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "audit_entries_tally_flush" ON "audit_entries"`);
    await queryRunner.query(`DROP TRIGGER "audit_entries_tally_add" ON "audit_entries"`);
    await queryRunner.query(`DROP FUNCTION "audit_tally_flush"()`);
    await queryRunner.query(`DROP FUNCTION "audit_tally_add"()`);
    await queryRunner.query(`DROP TABLE "audit_entry_tally"`);
  }
}
