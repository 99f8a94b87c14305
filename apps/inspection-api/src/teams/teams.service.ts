import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { audited } from '../audit/audit-actor';
import { existingIdsIn, SqlParameters, sqlState } from '../database/sql';
import { schemaJsonObject, type WritableValues } from '../drf/resource-schema';
import { type FieldErrors, isFieldErrors, notFound, validationError } from '../drf/exceptions';
import { type PageRequest, paginate, type PageRows } from '../drf/pagination';
import { type ResourceRequest, type ResourceService } from '../drf/resource-routes';
import { type Input, validateInput } from '../drf/serializer';
import { TEAM_FIELDS } from './dto/team.dto';
import { TEAM_SCHEMA } from './team.schema';

/** DRF's UniqueValidator message for the team's name. */
const DUPLICATE_NAME: FieldErrors = { name: ['team with this name already exists.'] };

/** The Team representation of alias `t` (`TEAM_SCHEMA`'s fields): members ascending. */
export const TEAM_JSON = schemaJsonObject(TEAM_SCHEMA, 't');

export interface TeamFilters {
  /** Only the teams this user is a member of. */
  member?: number;
}

export function teamPageSql(filters: TeamFilters, limit: number, offset: number) {
  const parameters = new SqlParameters();
  const where =
    filters.member === undefined
      ? ''
      : `WHERE EXISTS (SELECT 1 FROM "team_members" tm WHERE tm."team_id" = t."id" AND tm."user_id" = ${parameters.add(filters.member)})`;
  const sql = `SELECT (SELECT count(*) FROM "teams" t ${where})::int AS "count",
    COALESCE((SELECT json_agg(${TEAM_JSON} ORDER BY t."id") FROM (SELECT * FROM "teams" t ${where} ORDER BY t."id" LIMIT ${parameters.add(limit)} OFFSET ${parameters.add(offset)}) t), '[]'::json) AS "results"`;
  return { sql, parameters: parameters.values };
}

/**
 * Teams (`/api/teams/`): a name and its members. An action assigned to a team is its members' (the rules:
 * `action-transitions.ts`; who is told: `notification-audience.ts`); a plan assigned to a team is its members'
 * (`plan-assignment.ts`). Deleting a team leaves its actions unassigned and takes it off its plans (audited on each).
 */
@Injectable()
export class TeamsService implements ResourceService {
  constructor(private readonly dataSource: DataSource) {}

  page(filters: TeamFilters, request: PageRequest): Promise<PageRows<unknown> & { page: number }> {
    return paginate(request, async (limit, offset) => {
      const { sql, parameters } = teamPageSql(filters, limit, offset);
      const [row] = await this.dataSource.query<Array<PageRows<unknown>>>(sql, parameters);
      return { count: row?.count ?? 0, results: row?.results ?? [] };
    });
  }

  findOne(id: number): Promise<unknown> {
    return this.representation(this.dataSource, id);
  }

  private async representation(db: DataSource | EntityManager, id: number): Promise<unknown> {
    const rows: Array<{ body: unknown }> = await db.query(
      `SELECT ${TEAM_JSON} AS "body" FROM "teams" t WHERE t."id" = $1`,
      [id],
    );
    if (!rows[0]) throw notFound();
    return rows[0].body;
  }

  private async validate(input: Input, partial: boolean, id?: number) {
    const { values, errors } = await validateInput(input, TEAM_FIELDS, {
      partial,
      existingIds: existingIdsIn(this.dataSource),
      extraChecks: {
        name: async (name) => {
          const rows: unknown[] = await this.dataSource.query(
            'SELECT 1 FROM "teams" WHERE "name" = $1 AND "id" <> $2',
            [name, id ?? 0],
          );
          return rows.length ? DUPLICATE_NAME.name?.[0] : undefined;
        },
      },
    });
    if (isFieldErrors(errors)) throw validationError(errors);
    return values as WritableValues<typeof TEAM_SCHEMA>;
  }

  /** Replaces the members, touching only the memberships that change (the audit trail names them). */
  private async setMembers(manager: EntityManager, teamId: number, members: number[]): Promise<void> {
    await manager.query('DELETE FROM "team_members" WHERE "team_id" = $1 AND "user_id" <> ALL($2::int[])', [
      teamId,
      members,
    ]);
    await manager.query(
      'INSERT INTO "team_members" ("team_id", "user_id") SELECT $1, u FROM unnest($2::int[]) AS u ORDER BY u ON CONFLICT DO NOTHING',
      [teamId, members],
    );
  }

  /** A name taken or a member deleted between validation and the write is reported as the validation would. */
  private async writing<T>(
    request: ResourceRequest,
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    try {
      return await audited(this.dataSource, request.user, work);
    } catch (error) {
      if (sqlState(error) === '23505') throw validationError(DUPLICATE_NAME);
      if (sqlState(error) === '23503')
        throw validationError({ members: ['Invalid pk - object does not exist.'] });
      throw error;
    }
  }

  async create(readInput: () => Input, request: ResourceRequest): Promise<unknown> {
    const { name, members = [] } = await this.validate(readInput(), false);
    return this.writing(request, async (manager) => {
      const rows: Array<{ id: number }> = await manager.query(
        'INSERT INTO "teams" ("name") VALUES ($1) RETURNING "id"',
        [name],
      );
      const id = rows[0]?.id;
      await this.setMembers(manager, id, members);
      return this.representation(manager, id);
    });
  }

  /** PUT / PATCH: the name, and `members` replaces the whole set. */
  async update(
    id: number,
    readInput: () => Input,
    partial: boolean,
    request: ResourceRequest,
  ): Promise<unknown> {
    await this.representation(this.dataSource, id);
    const { name, members } = await this.validate(readInput(), partial, id);
    return this.writing(request, async (manager) => {
      const rows: unknown[] = await manager.query(
        `UPDATE "teams" SET "name" = COALESCE($2, "name") WHERE "id" = $1 RETURNING "id"`,
        [id, name ?? null],
      );
      if (!rows.length) throw notFound();
      if (members) await this.setMembers(manager, id, members);
      return this.representation(manager, id);
    });
  }

  /** DELETE: the team and its memberships go (audited); its actions are left unassigned, its plans lose it. */
  async remove(id: number, request: ResourceRequest): Promise<void> {
    const deleted: unknown[] = await audited(this.dataSource, request.user, (manager) =>
      manager.query(
        'WITH "gone" AS (DELETE FROM "teams" WHERE "id" = $1 RETURNING "id") SELECT * FROM "gone"',
        [id],
      ),
    );
    if (!deleted.length) throw notFound();
  }
}
