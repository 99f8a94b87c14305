import { hash, verify } from '@node-rs/argon2';
import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, type Logger } from '@fieldops/platform';
import { DataSource } from 'typeorm';
import { UserEntity } from './user.entity';

/** argon2id with the OWASP-recommended minimum (19 MiB, 2 passes). */
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export interface UserSummary {
  id: number;
  username: string;
  isActive: boolean;
  dateJoined: Date;
}

/** How long a bearer check may rely on a cached "user exists and is active" answer. */
const PRINCIPAL_CACHE_MS = 10_000;

export async function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** Users (Django's auth_user): argon2id password hashes; the bearer check's user lookup is briefly cached. */
@Injectable()
export class UsersService {
  private readonly principals = new Map<number, { active: boolean; until: number }>();
  /** A real hash, verified against when the user is unknown, so timing does not reveal who exists. */
  private decoyHash: Promise<string> | undefined;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async create(username: string, password: string): Promise<UserSummary> {
    const user = await this.dataSource
      .getRepository(UserEntity)
      .save({ username, password: await hashPassword(password), dateJoined: new Date() });
    return { id: user.id, username: user.username, isActive: true, dateJoined: user.dateJoined };
  }

  async list(): Promise<UserSummary[]> {
    const users = await this.dataSource.getRepository(UserEntity).find({ order: { id: 'ASC' } });
    return users.map(({ id, username, isActive, dateJoined }) => ({ id, username, isActive, dateJoined }));
  }

  /** Creates the first user from the environment unless a user of that name exists. */
  async ensureUser(username: string, password: string): Promise<void> {
    const exists = await this.dataSource.getRepository(UserEntity).existsBy({ username });
    if (exists) return;
    await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(UserEntity)
      .values({ username, password: await hashPassword(password), dateJoined: new Date() })
      .orIgnore()
      .execute();
    this.logger.info({ username }, 'created the initial user');
  }

  /** The active user with these credentials, or undefined (same work either way). */
  async authenticate(username: string, password: string): Promise<number | undefined> {
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ username });
    if (!user) {
      this.decoyHash ??= hashPassword('decoy password');
      await verify(await this.decoyHash, password).catch(() => false);
      return undefined;
    }
    const ok = await verify(user.password, password).catch(() => false);
    return ok && user.isActive ? user.id : undefined;
  }

  /** 'active', 'inactive' or 'missing'; cached for a few seconds per user id. */
  async principalState(id: number): Promise<'active' | 'inactive' | 'missing'> {
    const now = Date.now();
    const cached = this.principals.get(id);
    if (cached && cached.until > now) return cached.active ? 'active' : 'inactive';
    if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return 'missing';
    const rows: Array<{ is_active: boolean }> = await this.dataSource.query(
      'SELECT "is_active" FROM "users" WHERE "id" = $1',
      [id],
    );
    const row = rows[0];
    if (!row) return 'missing';
    if (this.principals.size > 10_000) this.principals.clear();
    this.principals.set(id, { active: row.is_active, until: now + PRINCIPAL_CACHE_MS });
    return row.is_active ? 'active' : 'inactive';
  }
}
