import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { Inject, Injectable } from '@nestjs/common';
import { forgetVerifiedBearers } from '@fieldops/auth';
import { LOGGER, type Logger } from '@fieldops/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { DrfException, type FieldErrors, isFieldErrors, notFound, validationError } from '../drf/exceptions';
import { type Input, validateInput } from '../drf/serializer';
import { type PageRequest, paginate, type PageRows } from '../drf/pagination';
import { containsPattern, isoTimestamp, SqlParameters, sqlState } from '../database/sql';
import { audited, auditActor, type AuditActor } from '../audit/audit-actor';
import { REVOKED_FROM_NOW_SQL, untilValid, validFromSecond } from '../auth/token-revocation';
import { type Role } from './role';
import { PASSWORD_FIELDS, USER_CREATE_FIELDS, USER_UPDATE_FIELDS } from './dto/user.dto';
import { UserEntity } from './user.entity';

/** argon2id with the OWASP-recommended minimum (19 MiB, 2 passes). */
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export interface UserSummary {
  id: number;
  username: string;
  role: Role;
  isActive: boolean;
  dateJoined: Date;
}

/** What the bearer check needs to know about a token's user. */
export interface UserPrincipal {
  active: boolean;
  username: string;
  role: Role;
  /** The epoch second from which its tokens are valid (token-revocation.ts); undefined: never revoked. */
  validFrom?: number;
}

export interface UserFilters {
  search?: string;
  role?: Role;
  /** People (the default) or service accounts. */
  kind?: UserKind;
}

/** How long a bearer check may rely on a cached answer about the user (exists, active, role). */
const PRINCIPAL_CACHE_MS = 10_000;

/** Django's UnicodeUsernameValidator. */
const USERNAME = /^[\p{L}\p{N}_.@+-]+$/u;
const INVALID_USERNAME =
  'Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.';
const DUPLICATE_USERNAME: FieldErrors = { username: ['A user with that username already exists.'] };
const LAST_SUPERVISOR = 'At least one active supervisor must remain.';

/** The kinds of account: people, and service accounts (software: the inspection bot's). */
export const USER_KINDS = ['person', 'service'] as const;
export type UserKind = (typeof USER_KINDS)[number];

/** Whether the user of alias `u` is a service account; `services` is the parameter holding their names. */
const isServiceSql = (services: string): string => `(u."username" = ANY(${services}::text[]))`;

/** The user representation of alias `u` (the API's users list and detail); `services` as for isServiceSql. */
const userJson = (services: string): string =>
  `json_build_object('id', u."id", 'username', u."username", 'role', u."role", 'is_active', u."is_active", 'date_joined', ${isoTimestamp('u."date_joined"')}, 'last_login', ${isoTimestamp('u."last_login"')}, 'kind', CASE WHEN ${isServiceSql(services)} THEN 'service' ELSE 'person' END)`;

const SERVICE_DEACTIVATED = 'A service account cannot be deactivated.';
const SERVICE_ROLE = 'The role of a service account cannot be changed.';
const SERVICE_DELETED = 'A service account cannot be deleted.';

export async function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/**
 * The role of a user created without one: the very first user is a supervisor (someone must be able to manage
 * the others), every later one an inspector.
 */
const ROLE_OF_NEW_USER = `(CASE WHEN EXISTS (SELECT 1 FROM "users") THEN 'inspector' ELSE 'supervisor' END)`;

/** Users (Django's auth_user with a role): argon2id password hashes; the bearer check's lookup is briefly cached. */
@Injectable()
export class UsersService {
  private readonly principals = new Map<number, { user: UserPrincipal | undefined; until: number }>();
  /** A real hash, verified against when the user is unknown, so timing does not reveal who exists. */
  private decoyHash: Promise<string> | undefined;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly environment: InspectionApiEnvironment,
  ) {}

  /** The configured service accounts' names (INSPECTION_SERVICE_ACCOUNTS). */
  private get serviceAccounts(): string[] {
    return this.environment.INSPECTION_SERVICE_ACCOUNTS;
  }

  /** Whether a user name is a service account's. */
  isServiceAccount(username: string): boolean {
    return this.serviceAccounts.includes(username);
  }

  /** Creates a user; without a role the first user is a supervisor and later ones inspectors. */
  async create(username: string, password: string, role?: Role, db: EntityManager = this.dataSource.manager) {
    const rows: Array<{ id: number; role: Role; date_joined: Date }> = await db.query(
      `INSERT INTO "users" ("username", "password", "date_joined", "role")
       VALUES ($1, $2, now(), COALESCE($3, ${ROLE_OF_NEW_USER})) RETURNING "id", "role", "date_joined"`,
      [username, await hashPassword(password), role ?? null],
    );
    const row = rows[0];
    return { id: row.id, username, role: row.role, isActive: true, dateJoined: row.date_joined };
  }

  async list(): Promise<UserSummary[]> {
    const users = await this.dataSource.getRepository(UserEntity).find({ order: { id: 'ASC' } });
    return users.map(({ id, username, role, isActive, dateJoined }) => ({
      id,
      username,
      role,
      isActive,
      dateJoined,
    }));
  }

  /** Sets a user's role by name (the users CLI); false when there is no such user. */
  async setRole(username: string, role: Role): Promise<boolean> {
    const result = await this.dataSource
      .createQueryBuilder()
      .update(UserEntity)
      .set({ role })
      .where('username = :username', { username })
      .execute();
    this.principals.clear();
    return Boolean(result.affected);
  }

  /**
   * Creates a user unless one of that name exists (an existing user is left as it is): the first user from the
   * environment and the launcher's demo accounts. A supervisor unless another role is given.
   */
  /** Whether any account exists. */
  async anyUser(): Promise<boolean> {
    return this.dataSource.getRepository(UserEntity).exists();
  }

  async ensureUser(username: string, password: string, role: Role = 'supervisor'): Promise<void> {
    const exists = await this.dataSource.getRepository(UserEntity).existsBy({ username });
    if (exists) return;
    await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(UserEntity)
      .values({
        username,
        password: await hashPassword(password),
        dateJoined: new Date(),
        role,
      })
      .orIgnore()
      .execute();
    this.logger.info({ username, role }, 'created a user');
  }

  /**
   * The active user with these credentials, or undefined (same work either way); records the login time. Answers
   * once tokens signed now are valid (a login within the second of a revocation waits for the next one).
   */
  async authenticate(username: string, password: string): Promise<number | undefined> {
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ username });
    if (!user) {
      this.decoyHash ??= hashPassword('decoy password');
      await verify(await this.decoyHash, password).catch(() => false);
      return undefined;
    }
    const ok = await verify(user.password, password).catch(() => false);
    if (!ok || !user.isActive) return undefined;
    await this.dataSource.query('UPDATE "users" SET "last_login" = now() WHERE "id" = $1', [user.id]);
    await untilValid(validFromSecond(user.tokensValidAfter));
    return user.id;
  }

  /**
   * The account of a person the OpenID Connect provider signed in (`issuer` + `subject`), with the role mapped from
   * the provider's claims: found by that identity and given the role; at the first sign-in created under `username`
   * with an unusable password, or, with `linkByUsername`, a local account of that name without an identity takes
   * it. A name taken otherwise (or a service account's) is a conflict; a deactivated account stays out. Records the
   * login time and answers once tokens signed now are valid.
   */
  async signInFromProvider(
    identity: { issuer: string; subject: string; username: string; role: Role },
    linkByUsername: boolean,
  ): Promise<{ kind: 'signed-in'; userId: number } | { kind: 'conflict' } | { kind: 'inactive' }> {
    const { issuer, subject, username, role } = identity;
    type Row = { id: number; is_active: boolean; username: string; tokens_valid_after: Date | null };
    const byIdentity = async (): Promise<Row | undefined> =>
      (
        await this.dataSource.query<Row[]>(
          `SELECT "id", "is_active", "username", "tokens_valid_after" FROM "users"
           WHERE "oidc_issuer" = $1 AND "oidc_subject" = $2`,
          [issuer, subject],
        )
      )[0];
    let user = await byIdentity();
    if (!user) {
      if (this.isServiceAccount(username)) return { kind: 'conflict' };
      const password = `!${randomBytes(30).toString('base64url')}`;
      // The account's id is taken first so the audit trail names the person as the one who created it.
      user = await this.dataSource.transaction(async (manager) => {
        const [reserved] = await manager.query<Array<{ id: number }>>(
          `SELECT nextval(pg_get_serial_sequence('"users"', 'id'))::int AS "id"`,
        );
        await auditActor(manager, { userId: reserved.id, username });
        const created = await manager.query<Row[]>(
          `INSERT INTO "users" ("id", "username", "password", "date_joined", "role", "oidc_issuer", "oidc_subject")
           VALUES ($6, $1, $2, now(), $3, $4, $5) ON CONFLICT DO NOTHING
           RETURNING "id", "is_active", "username", "tokens_valid_after"`,
          [username, password, role, issuer, subject, reserved.id],
        );
        return created[0];
      });
      if (user)
        this.logger.info(
          { username, role, issuer },
          'created an account at its first sign-in through the provider',
        );
      if (!user && linkByUsername) {
        user = await this.dataSource.transaction(async (manager) => {
          const [local] = await manager.query<Array<{ id: number }>>(
            `SELECT "id" FROM "users" WHERE "username" = $1 AND "oidc_subject" IS NULL FOR UPDATE`,
            [username],
          );
          if (!local) return undefined;
          await auditActor(manager, { userId: local.id, username });
          const linked = await manager.query<[Row[], number]>(
            `UPDATE "users" SET "oidc_issuer" = $2, "oidc_subject" = $3 WHERE "id" = $1
             RETURNING "id", "is_active", "username", "tokens_valid_after"`,
            [local.id, issuer, subject],
          );
          return linked[0][0];
        });
        if (user) this.logger.info({ username, issuer }, 'linked a local account to the provider');
      }
      // A concurrent first sign-in of the same person created it meanwhile.
      user ??= await byIdentity();
      if (!user) return { kind: 'conflict' };
    }
    if (!user.is_active) return { kind: 'inactive' };
    const signedIn = user;
    await audited(this.dataSource, { userId: signedIn.id, username: signedIn.username }, (manager) =>
      manager.query(
        `UPDATE "users" SET "last_login" = now(), "role" = CASE WHEN $2 THEN "role" ELSE $3 END WHERE "id" = $1`,
        [signedIn.id, this.isServiceAccount(signedIn.username), role],
      ),
    );
    this.forgetPrincipal(user.id);
    await untilValid(validFromSecond(user.tokens_valid_after));
    return { kind: 'signed-in', userId: user.id };
  }

  /** The user behind a token (undefined when missing); cached for a few seconds per user id. */
  async principal(id: number): Promise<UserPrincipal | undefined> {
    const now = Date.now();
    const cached = this.principals.get(id);
    if (cached && cached.until > now) return cached.user;
    if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return undefined;
    const rows: Array<{ is_active: boolean; username: string; role: Role; tokens_valid_after: Date | null }> =
      await this.dataSource.query(
        'SELECT "is_active", "username", "role", "tokens_valid_after" FROM "users" WHERE "id" = $1',
        [id],
      );
    const row = rows[0];
    const user = row && {
      active: row.is_active,
      username: row.username,
      role: row.role,
      validFrom: validFromSecond(row.tokens_valid_after),
    };
    if (this.principals.size > 10_000) this.principals.clear();
    if (user) this.principals.set(id, { user, until: now + PRINCIPAL_CACHE_MS });
    return user;
  }

  /**
   * Forgets what this process cached about a user: its principal and the bearer headers verified for it (the
   * guard's VerifiedBearerCache), so a change to the account applies to its next request. Other processes see it
   * when their caches expire (10 s at most).
   */
  private forgetPrincipal(id: number): void {
    this.principals.delete(id);
    forgetVerifiedBearers((principal) => (principal as { userId?: unknown } | undefined)?.userId === id);
  }

  /** 'active', 'inactive' or 'missing'; cached for a few seconds per user id. */
  async principalState(id: number): Promise<'active' | 'inactive' | 'missing'> {
    const user = await this.principal(id);
    if (!user) return 'missing';
    return user.active ? 'active' : 'inactive';
  }

  // --- the users API (supervisors) ---

  page(filters: UserFilters, request: PageRequest): Promise<PageRows<unknown> & { page: number }> {
    const parameters = new SqlParameters();
    const services = parameters.add(this.serviceAccounts);
    const conditions = [`${filters.kind === 'service' ? '' : 'NOT '}${isServiceSql(services)}`];
    if (filters.role !== undefined) conditions.push(`u."role" = ${parameters.add(filters.role)}`);
    for (const term of (filters.search ?? '').split(/[\s,]+/).filter(Boolean))
      conditions.push(`u."username" ILIKE ${parameters.add(containsPattern(term))}`);
    const where = `WHERE ${conditions.join(' AND ')}`;
    const statement = (limit: number, offset: number) => ({
      sql: `SELECT (SELECT count(*) FROM "users" u ${where})::int AS "count",
        COALESCE((SELECT json_agg(${userJson(services)} ORDER BY u."id") FROM (SELECT * FROM "users" u ${where} ORDER BY u."id" LIMIT ${limit} OFFSET ${offset}) u), '[]'::json) AS "results"`,
      parameters: parameters.values,
    });
    return paginate(request, async (limit, offset) => {
      const { sql, parameters: values } = statement(limit, offset);
      const [row] = await this.dataSource.query<Array<PageRows<unknown>>>(sql, values);
      return { count: row?.count ?? 0, results: row?.results ?? [] };
    });
  }

  async findOne(id: number): Promise<unknown> {
    const rows: Array<{ body: unknown }> = await this.dataSource.query(
      `SELECT ${userJson('$2')} AS "body" FROM "users" u WHERE u."id" = $1`,
      [id, this.serviceAccounts],
    );
    if (!rows[0]) throw notFound();
    return rows[0].body;
  }

  /** `GET /api/users/me/`: who the token belongs to. */
  async me(id: number): Promise<{ id: number; username: string; role: Role; is_active: boolean }> {
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ id });
    if (!user) throw notFound();
    return { id: user.id, username: user.username, role: user.role, is_active: user.isActive };
  }

  async createFromInput(readInput: () => Input, actor?: AuditActor): Promise<unknown> {
    const { values, errors } = await validateInput(readInput(), USER_CREATE_FIELDS, {
      partial: false,
      existingIds: () => Promise.resolve(new Set()),
      extraChecks: {
        username: async (username) => {
          if (!USERNAME.test(String(username))) return INVALID_USERNAME;
          const taken = await this.dataSource
            .getRepository(UserEntity)
            .existsBy({ username: String(username) });
          return taken ? DUPLICATE_USERNAME.username?.[0] : undefined;
        },
      },
    });
    if (isFieldErrors(errors)) throw validationError(errors);
    try {
      const user = await audited(this.dataSource, actor, (manager) =>
        this.create(
          values.username as string,
          values.password as string,
          (values.role as Role | undefined) ?? 'inspector',
          manager,
        ),
      );
      return await this.findOne(user.id);
    } catch (error) {
      if (sqlState(error) === '23505') throw validationError(DUPLICATE_USERNAME);
      throw error;
    }
  }

  /**
   * PATCH (and PUT) of `role` / `is_active`. A change that would leave no active supervisor is refused, so the
   * users can always be managed.
   */
  async update(id: number, readInput: () => Input, partial: boolean, actor?: AuditActor): Promise<unknown> {
    if (!(await this.dataSource.getRepository(UserEntity).existsBy({ id }))) throw notFound();
    const { values, errors } = await validateInput(readInput(), USER_UPDATE_FIELDS, {
      partial,
      existingIds: () => Promise.resolve(new Set()),
    });
    if (isFieldErrors(errors)) throw validationError(errors);
    await this.refuseServiceAccountChange(
      id,
      values.role as Role | undefined,
      values.is_active as boolean | undefined,
    );
    const changes: Partial<UserEntity> = {};
    if (values.role !== undefined) changes.role = values.role as Role;
    if (values.is_active !== undefined) changes.isActive = values.is_active as boolean;
    if (Object.keys(changes).length) {
      await this.keepingASupervisor(actor, async (manager) => {
        await manager.getRepository(UserEntity).update({ id }, changes);
        // A deactivation revokes the account's tokens, so reactivating it does not bring them back.
        if (changes.isActive === false) await this.revokeTokens(id, manager);
      });
      this.forgetPrincipal(id);
    }
    return this.findOne(id);
  }

  /**
   * A service account (the bot's) is not managed through the API: it stays active with its role (400 keyed by the
   * field). Sending the values it already has is fine.
   */
  private async refuseServiceAccountChange(id: number, role: Role | undefined, active: boolean | undefined) {
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ id });
    if (!user || !this.isServiceAccount(user.username)) return;
    const errors: FieldErrors = {};
    if (role !== undefined && role !== user.role) errors.role = [SERVICE_ROLE];
    if (active === false) errors.is_active = [SERVICE_DEACTIVATED];
    if (isFieldErrors(errors)) throw validationError(errors);
  }

  async remove(id: number, actor?: AuditActor): Promise<void> {
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ id });
    if (user && this.isServiceAccount(user.username))
      throw new DrfException(403, { detail: SERVICE_DELETED });
    await this.keepingASupervisor(actor, async (manager) => {
      const deleted: unknown[] = await manager.query(
        'WITH gone AS (DELETE FROM "users" WHERE "id" = $1 RETURNING "id") SELECT * FROM gone',
        [id],
      );
      if (!deleted.length) throw notFound();
    });
    this.forgetPrincipal(id);
  }

  async setPassword(id: number, readInput: () => Input, actor?: AuditActor): Promise<void> {
    if (!(await this.dataSource.getRepository(UserEntity).existsBy({ id }))) throw notFound();
    const { values, errors } = await validateInput(readInput(), PASSWORD_FIELDS, {
      partial: false,
      existingIds: () => Promise.resolve(new Set()),
    });
    if (isFieldErrors(errors)) throw validationError(errors);
    const passwordHash = await hashPassword(values.password as string);
    // A new password revokes every token issued before it (the old password's sessions end).
    await audited(this.dataSource, actor, (manager) =>
      manager.query(
        `UPDATE "users" SET "password" = $2, "tokens_valid_after" = ${REVOKED_FROM_NOW_SQL} WHERE "id" = $1`,
        [id, passwordHash],
      ),
    );
    this.forgetPrincipal(id);
  }

  /** Sign out everywhere: every access and refresh token of the user issued until now is refused. */
  async revokeTokens(id: number, db?: EntityManager, actor?: AuditActor): Promise<void> {
    const revoke = (manager: EntityManager) =>
      manager.query(`UPDATE "users" SET "tokens_valid_after" = ${REVOKED_FROM_NOW_SQL} WHERE "id" = $1`, [
        id,
      ]);
    await (db ? revoke(db) : audited(this.dataSource, actor, revoke));
    this.forgetPrincipal(id);
  }

  /**
   * Runs a change of users in a transaction and refuses it (rolled back) when no active supervisor would remain.
   * The table lock, taken first, serialises such changes, so two supervisors cannot demote each other at once.
   */
  private async keepingASupervisor(
    actor: AuditActor | undefined,
    change: (manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    await audited(this.dataSource, actor, async (manager) => {
      await manager.query(`LOCK TABLE "users" IN SHARE ROW EXCLUSIVE MODE`);
      await change(manager);
      const rows: unknown[] = await manager.query(
        `SELECT 1 FROM "users" WHERE "role" = 'supervisor' AND "is_active" LIMIT 1`,
      );
      if (!rows.length) throw validationError({ non_field_errors: [LAST_SUPERVISOR] });
    });
  }
}
