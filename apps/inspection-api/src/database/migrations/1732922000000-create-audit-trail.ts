import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** The audited tables: table → resource name, hidden columns, columns whose change alone is not audited. */
const AUDITED: Array<{ table: string; resource: string; secret?: string; ignored?: string }> = [
  { table: 'devices', resource: 'device' },
  { table: 'check_items', resource: 'item' },
  { table: 'check_plans', resource: 'plan' },
  { table: 'check_records', resource: 'record' },
  { table: 'actions', resource: 'action', ignored: 'updated_at' },
  { table: 'users', resource: 'user', secret: 'password', ignored: 'last_login' },
];

/**
 * The audit trail (`/api/audit/`): one append-only row per change of a device, item, plan, record, action or user,
 * written by triggers in the transaction of the change, so no write path can skip it. Who made the change is the
 * transaction's `fieldops.audit_actor` setting (`src/audit/audit-actor.ts`); without it (the users CLI, SQL by hand)
 * the actor is empty. A plan's devices are audited on the plan (`device_added` / `device_removed`), an action's
 * comments on the action (`commented`). Secrets (the password hash) never enter the trail: a password change shows
 * as `"password_changed": true`. The trail refuses UPDATE, DELETE and TRUNCATE.
 */
export class CreateAuditTrail1732922000000 implements MigrationInterface {
  name = 'CreateAuditTrail1732922000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "audit_entries" (
      "id" bigserial PRIMARY KEY,
      "resource" varchar(10) NOT NULL,
      "resource_id" integer NOT NULL,
      "event" varchar(16) NOT NULL,
      "actor_id" integer NULL,
      "actor" varchar(150) NOT NULL DEFAULT '',
      "at" timestamptz NOT NULL DEFAULT now(),
      "changed" text[] NOT NULL DEFAULT '{}',
      "before" jsonb NULL,
      "after" jsonb NULL
    )`);
    await queryRunner.query(
      `CREATE INDEX "audit_entries_resource_idx" ON "audit_entries" ("resource", "resource_id", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "audit_entries_actor_id_idx" ON "audit_entries" ("actor_id", "id")`,
    );
    await queryRunner.query(`CREATE FUNCTION "audit_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the audit trail is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "audit_entries_append_only" BEFORE UPDATE OR DELETE ON "audit_entries"
      FOR EACH ROW EXECUTE FUNCTION "audit_refuse_change"()`);
    await queryRunner.query(`CREATE TRIGGER "audit_entries_no_truncate" BEFORE TRUNCATE ON "audit_entries"
      FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_change"()`);
    // A row as the trail shows it: `<name>_id` keys under the API's field name, secrets out.
    await queryRunner.query(`CREATE FUNCTION "audit_shape"("p_row" jsonb, "p_secret" text) RETURNS jsonb
      LANGUAGE sql IMMUTABLE AS $$
        SELECT jsonb_object_agg(CASE WHEN key LIKE '%\\_id' THEN left(key, -3) ELSE key END, value)
        FROM jsonb_each("p_row" - COALESCE("p_secret", '')) $$`);
    await queryRunner.query(`CREATE FUNCTION "audit_write"("p_resource" text, "p_resource_id" integer, "p_event" text,
        "p_before" jsonb, "p_after" jsonb) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        actor jsonb := nullif(current_setting('fieldops.audit_actor', true), '')::jsonb;
      BEGIN
        INSERT INTO "audit_entries" ("resource", "resource_id", "event", "actor_id", "actor", "changed", "before", "after")
        VALUES ("p_resource", "p_resource_id", "p_event", (actor->>'id')::integer, COALESCE(actor->>'username', ''),
          ARRAY(SELECT e.key FROM jsonb_each(COALESCE("p_after", '{}')) e WHERE "p_before" IS NOT NULL AND "p_before"->e.key IS DISTINCT FROM e.value ORDER BY e.key),
          "p_before", "p_after");
      END $$`);
    // TG_ARGV: resource, secret column, column whose change alone is not a change.
    await queryRunner.query(`CREATE FUNCTION "audit_row_change"() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        secret text := nullif(TG_ARGV[1], '');
        ignored text := COALESCE(nullif(TG_ARGV[2], ''), '');
        old_row jsonb;
        new_row jsonb;
        event text;
      BEGIN
        IF TG_OP <> 'INSERT' THEN old_row := "audit_shape"(to_jsonb(OLD), secret); END IF;
        IF TG_OP <> 'DELETE' THEN new_row := "audit_shape"(to_jsonb(NEW), secret); END IF;
        IF TG_OP = 'INSERT' THEN event := 'created';
        ELSIF TG_OP = 'DELETE' THEN event := 'deleted';
        ELSE
          IF secret IS NOT NULL AND to_jsonb(OLD)->secret IS DISTINCT FROM to_jsonb(NEW)->secret THEN
            new_row := new_row || '{"password_changed": true}';
          ELSIF old_row - ignored = new_row - ignored THEN
            RETURN NULL;
          END IF;
          event := CASE
            WHEN old_row ? 'archived_at' AND old_row->'archived_at' = 'null' AND new_row->'archived_at' <> 'null' THEN 'archived'
            WHEN old_row ? 'archived_at' AND old_row->'archived_at' <> 'null' AND new_row->'archived_at' = 'null' THEN 'restored'
            ELSE 'updated' END;
        END IF;
        PERFORM "audit_write"(TG_ARGV[0], (COALESCE(new_row, old_row)->>'id')::integer, event, old_row, new_row);
        RETURN NULL;
      END $$`);
    for (const { table, resource, secret = '', ignored = '' } of AUDITED)
      await queryRunner.query(`CREATE TRIGGER "${table}_audit" AFTER INSERT OR UPDATE OR DELETE ON "${table}"
        FOR EACH ROW EXECUTE FUNCTION "audit_row_change"('${resource}', '${secret}', '${ignored}')`);
    await queryRunner.query(`CREATE FUNCTION "audit_plan_device"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          PERFORM "audit_write"('plan', NEW."plan_id", 'device_added', NULL, jsonb_build_object('device', NEW."device_id"));
        ELSE
          PERFORM "audit_write"('plan', OLD."plan_id", 'device_removed', jsonb_build_object('device', OLD."device_id"), NULL);
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "check_plan_devices_audit" AFTER INSERT OR DELETE ON "check_plan_devices"
      FOR EACH ROW EXECUTE FUNCTION "audit_plan_device"()`);
    await queryRunner.query(`CREATE FUNCTION "audit_action_comment"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM "audit_write"('action', NEW."action_id", 'commented', NULL,
          jsonb_build_object('comment', NEW."id", 'text', NEW."text", 'author', NEW."author"));
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "action_comments_audit" AFTER INSERT ON "action_comments"
      FOR EACH ROW EXECUTE FUNCTION "audit_action_comment"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "action_comments_audit" ON "action_comments"`);
    await queryRunner.query(`DROP FUNCTION "audit_action_comment"()`);
    await queryRunner.query(`DROP TRIGGER "check_plan_devices_audit" ON "check_plan_devices"`);
    await queryRunner.query(`DROP FUNCTION "audit_plan_device"()`);
    for (const { table } of AUDITED) await queryRunner.query(`DROP TRIGGER "${table}_audit" ON "${table}"`);
    await queryRunner.query(`DROP FUNCTION "audit_row_change"()`);
    await queryRunner.query(`DROP FUNCTION "audit_write"(text, integer, text, jsonb, jsonb)`);
    await queryRunner.query(`DROP FUNCTION "audit_shape"(jsonb, text)`);
    await queryRunner.query(`DROP TABLE "audit_entries"`);
    await queryRunner.query(`DROP FUNCTION "audit_refuse_change"()`);
  }
}
