import 'reflect-metadata';
import { runMigrationsUnderLock } from '@fieldops/database';
import { ConfigurationError, createLogger, loadEnvironment } from '@fieldops/platform';
import { DataSource } from 'typeorm';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { resolveDatabaseUrl } from '../database/database-url';
import { inspectionDataSourceOptions } from '../database/inspection-data-source';
import { UserEntity } from '../users/user.entity';
import { isRole, type Role } from '../users/role';
import { UsersService } from '../users/users.service';

const USAGE = `usage:
  npm run users -w @fieldops/inspection-api -- create <username> [inspector|supervisor]   (password: first line of stdin)
  npm run users -w @fieldops/inspection-api -- role <username> <inspector|supervisor>
  npm run users -w @fieldops/inspection-api -- list
Without a role, the first user is a supervisor and later ones are inspectors.
Uses the same environment as the app (DATABASE_URL; embedded PostgreSQL when unset).`;

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('password: ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

/** `users create <name> [role]` / `users role <name> <role>` / `users list`: manages the accounts. */
async function main(argv: string[]): Promise<number> {
  const [command, username, role] = argv;
  const valid =
    (command === 'list' && argv.length === 1) ||
    (command === 'create' && username && (role === undefined || isRole(role)) && argv.length <= 3) ||
    (command === 'role' && username && isRole(role) && argv.length === 3);
  if (!valid) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const environment = loadEnvironment(InspectionApiEnvironment, process.env, 'inspection-api users');
  const logger = createLogger({ service: 'inspection-api', level: environment.LOG_LEVEL }).child({
    component: 'users-cli',
  });
  const cleanups: Array<() => Promise<void>> = [];
  try {
    const url = await resolveDatabaseUrl(environment, logger, (cleanup) => cleanups.push(cleanup));
    const dataSource = await new DataSource(inspectionDataSourceOptions(url, 2, logger)).initialize();
    try {
      await runMigrationsUnderLock(dataSource, { logger });
      const users = dataSource.getRepository(UserEntity);
      const service = new UsersService(dataSource, logger, environment);
      if (command === 'list') {
        for (const user of await service.list())
          process.stdout.write(
            `${user.id}\t${user.username}\t${user.role}\t${user.isActive ? 'active' : 'inactive'}\t${user.dateJoined.toISOString()}\n`,
          );
        return 0;
      }
      if (command === 'role') {
        if (!(await service.setRole(username ?? '', role as Role))) {
          process.stderr.write(`no user ${username}\n`);
          return 1;
        }
        process.stdout.write(`${username} is now a ${role}\n`);
        return 0;
      }
      const name = username ?? '';
      if (name.length > 150) throw new Error('username is longer than 150 characters');
      if (await users.existsBy({ username: name })) {
        process.stderr.write(`user ${name} already exists\n`);
        return 1;
      }
      const password = await readPassword();
      if (!password) {
        process.stderr.write('empty password\n');
        return 1;
      }
      const user = await service.create(name, password, role as Role | undefined);
      process.stdout.write(`created ${user.role} ${user.username} (id ${user.id})\n`);
      return 0;
    } finally {
      await dataSource.destroy();
    }
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof ConfigurationError ? error.message : error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
