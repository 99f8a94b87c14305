import type { DataSource } from 'typeorm';

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map(describe).join('; ');
  }
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/**
 * Resolves when the database answers `SELECT 1` within `timeoutMs`; otherwise rejects with an Error whose
 * message starts with "Database is not ready" and says why (not initialized, unreachable, or too slow).
 * Meant for readiness probes: it never waits longer than the timeout.
 */
export async function checkDatabaseReady(dataSource: DataSource, timeoutMs = 2000): Promise<void> {
  if (!dataSource.isInitialized) {
    throw new Error(
      'Database is not ready: the DataSource is not initialized (its initial connection failed)',
    );
  }
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Database is not ready: SELECT 1 got no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  const probe = dataSource.query('SELECT 1').then(
    () => undefined,
    (error: unknown) => {
      throw new Error(`Database is not ready: ${describe(error)}`, { cause: error });
    },
  );
  try {
    await Promise.race([probe, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
