import type { DatabaseLogger } from './database-logger';
import { TypeOrmDatabaseLogger } from './typeorm-logger';

type Entry = { level: string; details: Record<string, unknown>; message?: string };

function capture(): DatabaseLogger & { entries: Entry[] } {
  const entries: Entry[] = [];
  const at =
    (level: string) =>
    (details: object, message?: string): void => {
      entries.push({ level, details: details as Record<string, unknown>, message });
    };
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

describe('TypeOrmDatabaseLogger', () => {
  it('drops queries unless query logging is on, and never logs parameter values', () => {
    const quiet = capture();
    new TypeOrmDatabaseLogger(quiet, false).logQuery('SELECT $1', ['secret']);
    expect(quiet.entries).toEqual([]);

    const verbose = capture();
    new TypeOrmDatabaseLogger(verbose, ['query']).logQuery('SELECT $1', ['secret']);
    expect(verbose.entries).toEqual([
      {
        level: 'debug',
        details: { component: 'typeorm', type: 'query', parameterCount: 1 },
        message: 'query: SELECT $1',
      },
    ]);
    expect(JSON.stringify(verbose.entries)).not.toContain('secret');
  });

  it('always reports migrations (info) and slow queries (warn)', () => {
    const logger = capture();
    const typeormLogger = new TypeOrmDatabaseLogger(logger, false);
    typeormLogger.logMigration('Migration "X1700000000000" has been executed successfully.');
    typeormLogger.logQuerySlow(2500, 'SELECT pg_sleep(2.5)');
    expect(logger.entries.map((entry) => entry.level)).toEqual(['info', 'warn']);
    expect(logger.entries[0]?.message).toContain('X1700000000000');
    expect(logger.entries[1]?.message).toMatch(/SELECT pg_sleep\(2\.5\).*2500/);
  });

  it('reports failed queries as warnings when error logging is on', () => {
    const logger = capture();
    new TypeOrmDatabaseLogger(logger, ['error']).logQueryError('boom', 'SELECT 1/0', []);
    expect(logger.entries).toHaveLength(1);
    expect(logger.entries[0]).toMatchObject({
      level: 'warn',
      details: { type: 'query-error', parameterCount: 0 },
    });
    expect(logger.entries[0]?.message).toMatch(/SELECT 1\/0.*boom/);
  });
});
