import { audited } from '../audit/audit-actor';
import { type ResourceRequest } from '../drf/resource-routes';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, IsNull } from 'typeorm';
import { DrfException, notFound, validationError } from '../drf/exceptions';
import { type Input, validateInput } from '../drf/serializer';
import { type PageRequest, paginate, type PageRows } from '../drf/pagination';
import { existingIdsIn, SqlParameters, sqlState } from '../database/sql';
import { type OpenActionOn } from '../actions/action-transitions';
import { CheckPlanEntity, type Frequency } from './check-plan.entity';
import { CHECK_PLAN_FIELDS } from './dto/check-plan.dto';
import { CHECK_PLAN_SCHEMA } from './check-plan.schema';
import { schemaJsonObject } from '../drf/resource-schema';
import { FREQUENCY_SCHEDULES, frequencyOf, type Schedule } from '../due/due-rules';
import { frequencyMismatch, readSchedule } from './plan-schedule';

const isObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The CheckPlan representation of alias `p` (`CHECK_PLAN_SCHEMA`'s fields). */
export const PLAN_JSON = schemaJsonObject(CHECK_PLAN_SCHEMA, 'p');

export function planPageSql(active: boolean | undefined, limit: number, offset: number) {
  const parameters = new SqlParameters();
  const where = `WHERE p."archived_at" IS NULL${active === undefined ? '' : ` AND p."active" = ${parameters.add(active)}`}`;
  const sql = `SELECT (SELECT count(*) FROM "check_plans" p ${where})::int AS "count",
    COALESCE((SELECT json_agg(${PLAN_JSON} ORDER BY p."id") FROM (SELECT * FROM "check_plans" p ${where} ORDER BY p."id" LIMIT ${parameters.add(limit)} OFFSET ${parameters.add(offset)}) p), '[]'::json) AS "results"`;
  return { sql, parameters: parameters.values };
}

type PlanValues = {
  devices?: number[];
  assignees?: number[];
  assignee_teams?: number[];
  name?: string;
  frequency?: Frequency;
  active?: boolean;
  open_action_on?: OpenActionOn;
  /** A frequency sent alone changes `every` and `unit` only. */
  schedule?: Pick<Schedule, 'every' | 'unit'> & Partial<Schedule>;
};

/** The plan's columns of the validated fields (entity properties). */
function planColumns({
  open_action_on: openActionOn,
  schedule,
  ...plan
}: Omit<PlanValues, 'devices' | 'assignees' | 'assignee_teams'>): Partial<CheckPlanEntity> {
  const columns: Partial<CheckPlanEntity> = { ...plan };
  if (openActionOn !== undefined) columns.openActionOn = openActionOn;
  if (schedule) {
    columns.scheduleEvery = schedule.every;
    columns.scheduleUnit = schedule.unit;
    if (schedule.starts_on !== undefined) columns.startsOn = schedule.starts_on;
    if (schedule.due_time !== undefined) columns.dueTime = schedule.due_time;
  }
  return columns;
}

/** Error keys in the serializer's field order (a mismatch found after the fields were read goes in its place). */
const FIELD_ORDER = [
  'non_field_errors',
  ...CHECK_PLAN_FIELDS.map((spec) => spec.name),
  ...CHECK_PLAN_SCHEMA.fields.filter((field) => 'customWritable' in field).map((field) => field.name),
];
const ordered = (errors: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(FIELD_ORDER.filter((name) => name in errors).map((name) => [name, errors[name]]));

/** The field of the reference a foreign-key violation (23503) names: a plan's team, user or device. */
function referenceField(error: unknown): 'assignee_teams' | 'assignees' | 'devices' {
  const constraint = (error as { driverError?: { constraint?: unknown } }).driverError?.constraint;
  if (typeof constraint === 'string' && constraint.startsWith('check_plan_teams')) return 'assignee_teams';
  if (typeof constraint === 'string' && constraint.startsWith('check_plan_assignees')) return 'assignees';
  return 'devices';
}

@Injectable()
export class PlansService {
  constructor(private readonly dataSource: DataSource) {}

  page(active: boolean | undefined, request: PageRequest): Promise<PageRows<unknown> & { page: number }> {
    return paginate(request, async (limit, offset) => {
      const { sql, parameters } = planPageSql(active, limit, offset);
      const [row] = await this.dataSource.query<Array<PageRows<unknown>>>(sql, parameters);
      return { count: row?.count ?? 0, results: row?.results ?? [] };
    });
  }

  findOne(id: number): Promise<unknown> {
    return this.representation(id, this.dataSource);
  }

  /** The representation as `db` (the pool, or the transaction that just wrote it) sees it. */
  private async representation(id: number, db: DataSource | EntityManager): Promise<unknown> {
    const rows: Array<{ body: unknown }> = await db.query(
      `SELECT ${PLAN_JSON} AS "body" FROM "check_plans" p WHERE p."id" = $1 AND p."archived_at" IS NULL`,
      [id],
    );
    if (!rows[0]) throw notFound();
    return rows[0].body;
  }

  /**
   * The fields, and `frequency` and `schedule` reconciled (docs/protocols/inspection-api.md, "Schedules"): a
   * schedule sets the frequency word it shows as (a frequency sent with it must be that word); a frequency sent
   * alone sets its own schedule (every 1 day, week or month) unless it is the word the plan's schedule already
   * shows as (`current`), so a client that writes back what it read keeps the schedule.
   */
  private async validate(input: Input, partial: boolean, current?: Frequency): Promise<PlanValues> {
    const { values, errors } = await validateInput(input, CHECK_PLAN_FIELDS, {
      partial,
      existingIds: existingIdsIn(this.dataSource),
    });
    const all: Record<string, unknown> = { ...errors };
    const reading =
      input.kind === 'json' && !isObject(input.data) ? { missing: true as const } : readSchedule(input);
    const plan = values as PlanValues;
    if (!('missing' in reading)) {
      if ((all.frequency as string[] | undefined)?.[0] === 'This field is required.') delete all.frequency; // the schedule gives it
      if ('errors' in reading) all.schedule = reading.errors;
      else {
        const mismatch = plan.frequency && frequencyMismatch(plan.frequency, reading.schedule);
        if (mismatch) all.frequency = [mismatch];
        plan.schedule = reading.schedule;
        plan.frequency = frequencyOf(reading.schedule.unit);
      }
    } else if (plan.frequency !== undefined && plan.frequency !== current) {
      plan.schedule = { ...FREQUENCY_SCHEDULES[plan.frequency] };
    }
    if (Object.keys(all).length) throw new DrfException(400, ordered(all));
    return plan;
  }

  /**
   * Replaces the plan's devices in use (archived members stay, to come back if they are restored). Only the
   * memberships that change are deleted or inserted, so the audit trail names exactly the devices added and removed.
   */
  private async setDevices(manager: EntityManager, planId: number, devices: number[]): Promise<void> {
    await manager.query(
      'DELETE FROM "check_plan_devices" pd USING "devices" d WHERE pd."plan_id" = $1 AND d."id" = pd."device_id" AND d."archived_at" IS NULL AND pd."device_id" <> ALL($2::int[])',
      [planId, devices],
    );
    await manager.query(
      'INSERT INTO "check_plan_devices" ("plan_id", "device_id") SELECT $1, d FROM unnest($2::int[]) AS d ORDER BY d ON CONFLICT DO NOTHING',
      [planId, devices],
    );
  }

  /** Replaces the plan's assignees, touching only the assignments that change (the audit trail names them). */
  private async setAssignees(manager: EntityManager, planId: number, assignees: number[]): Promise<void> {
    await manager.query(
      'DELETE FROM "check_plan_assignees" WHERE "plan_id" = $1 AND "user_id" <> ALL($2::int[])',
      [planId, assignees],
    );
    await manager.query(
      'INSERT INTO "check_plan_assignees" ("plan_id", "user_id") SELECT $1, u FROM unnest($2::int[]) AS u ORDER BY u ON CONFLICT DO NOTHING',
      [planId, assignees],
    );
  }

  /** Replaces the plan's assignee teams, touching only the assignments that change (the audit trail names them). */
  private async setTeams(manager: EntityManager, planId: number, teams: number[]): Promise<void> {
    await manager.query(
      'DELETE FROM "check_plan_teams" WHERE "plan_id" = $1 AND "team_id" <> ALL($2::int[])',
      [planId, teams],
    );
    await manager.query(
      'INSERT INTO "check_plan_teams" ("plan_id", "team_id") SELECT $1, t FROM unnest($2::int[]) AS t ORDER BY t ON CONFLICT DO NOTHING',
      [planId, teams],
    );
  }

  /** A device, user or team deleted between validation and the write is reported as the validation would have. */
  private async writing<T>(
    request: ResourceRequest | undefined,
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    try {
      return await audited(this.dataSource, request?.user, work);
    } catch (error) {
      if (sqlState(error) === '23503')
        throw validationError({ [referenceField(error)]: ['Invalid pk - object does not exist.'] });
      throw error;
    }
  }

  async create(readInput: () => Input, request?: ResourceRequest): Promise<unknown> {
    const {
      devices = [],
      assignees = [],
      assignee_teams: teams = [],
      ...plan
    } = await this.validate(readInput(), false);
    return this.writing(request, async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .insert()
        .into(CheckPlanEntity)
        .values(planColumns(plan))
        .returning(['id'])
        .execute();
      const id = (result.identifiers[0] as { id: number }).id;
      await this.setDevices(manager, id, devices);
      await this.setAssignees(manager, id, assignees);
      await this.setTeams(manager, id, teams);
      return this.representation(id, manager);
    });
  }

  /** PUT/PATCH: sent fields are assigned; `devices` replaces the whole set. */
  async update(
    id: number,
    readInput: () => Input,
    partial: boolean,
    request?: ResourceRequest,
  ): Promise<unknown> {
    const current = await this.dataSource
      .getRepository(CheckPlanEntity)
      .findOne({ select: { frequency: true }, where: { id, archivedAt: IsNull() } });
    if (!current) throw notFound();
    const {
      devices,
      assignees,
      assignee_teams: teams,
      ...plan
    } = await this.validate(readInput(), partial, current.frequency);
    return this.writing(request, async (manager) => {
      if (Object.keys(plan).length)
        await manager
          .createQueryBuilder()
          .update(CheckPlanEntity)
          .set(planColumns(plan))
          .where('id = :id AND archived_at IS NULL', { id })
          .execute();
      if (devices) await this.setDevices(manager, id, devices);
      if (assignees) await this.setAssignees(manager, id, assignees);
      if (teams) await this.setTeams(manager, id, teams);
      return this.representation(id, manager);
    });
  }

  /** DELETE archives the plan: 404 from then on, out of lists and due checks; its records keep referring to it. */
  async remove(id: number, request?: ResourceRequest): Promise<void> {
    const archived: unknown[] = await audited(this.dataSource, request?.user, (manager) =>
      manager.query(
        'WITH "archived" AS (UPDATE "check_plans" SET "archived_at" = now() WHERE "id" = $1 AND "archived_at" IS NULL RETURNING "id") SELECT * FROM "archived"',
        [id],
      ),
    );
    if (!archived.length) throw notFound();
  }
}
