import { buildPostgresDataSourceOptions, DEFAULT_POOL_SIZE } from './data-source-options';

class SomeMigration1700000000000 {}

describe('buildPostgresDataSourceOptions', () => {
  const url = 'postgres://app:secret@db.internal:5432/fieldops';

  it('leaves the schema to migrations and bounds the pool', () => {
    const options = buildPostgresDataSourceOptions({
      url,
      entities: [],
      migrations: [SomeMigration1700000000000],
    });
    expect(options).toMatchObject({
      type: 'postgres',
      url,
      synchronize: false,
      migrationsRun: false,
      dropSchema: false,
      installExtensions: false,
      migrationsTableName: 'migrations',
      migrationsTransactionMode: 'each',
      migrations: [SomeMigration1700000000000],
      applicationName: 'fieldops',
      logging: false,
      extra: { max: DEFAULT_POOL_SIZE, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 },
    });
  });

  it('takes pool size, application name, timeouts and logging from the caller', () => {
    const options = buildPostgresDataSourceOptions({
      url,
      entities: [],
      migrations: [],
      poolSize: 4,
      applicationName: 'inspection-api',
      logging: ['error'],
      connectionTimeoutMillis: 1_000,
      idleTimeoutMillis: 2_000,
    });
    expect(options).toMatchObject({
      applicationName: 'inspection-api',
      logging: ['error'],
      extra: { max: 4, connectionTimeoutMillis: 1_000, idleTimeoutMillis: 2_000 },
    });
  });

  it('rejects a pool size that is not a positive integer', () => {
    expect(() => buildPostgresDataSourceOptions({ url, entities: [], migrations: [], poolSize: 0 })).toThrow(
      /poolSize/,
    );
  });
});
