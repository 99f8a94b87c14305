import { type ActivityBusLogger } from './activity-bus-logger';
import { ConnectionErrorReporter } from './connection-error-reporter';

describe('ConnectionErrorReporter', () => {
  let now: number;
  let logger: { warn: jest.Mock; error: jest.Mock; info: jest.Mock } & ActivityBusLogger;
  let reporter: ConnectionErrorReporter;
  const refused = new Error('connect ECONNREFUSED 127.0.0.1:6379');

  beforeEach(() => {
    now = 0;
    logger = { warn: jest.fn(), error: jest.fn(), info: jest.fn() };
    reporter = new ConnectionErrorReporter({
      connection: 'subscriber',
      target: 'redis://redis:6379',
      logger,
      repeatIntervalMs: 60_000,
      now: () => now,
    });
  });

  it('logs the first failure of an outage and counts the rest until the repeat interval passes', () => {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      reporter.recordError(refused);
      reporter.recordDisconnect(200);
      now += 500;
    }
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ connection: 'subscriber', target: 'redis://redis:6379', err: refused }),
      'Redis activity bus connection failed; reconnecting',
    );

    now += 60_000;
    reporter.recordError(refused);
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(logger.warn).toHaveBeenLastCalledWith(
      expect.objectContaining({ failedAttempts: 101, failuresSinceLastLog: 100 }),
      'Redis activity bus connection failed; reconnecting (still down)',
    );
    expect(reporter.lastError).toBe(refused);
  });

  it('logs a drop without an error once, and the recovery with the outage length', () => {
    reporter.recordDisconnect(100);
    reporter.recordDisconnect(200);
    now += 1_500;
    reporter.recordReady();

    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ retryDelayMs: 100 }),
      'Redis activity bus connection lost; reconnecting',
    );
    expect(logger.info).toHaveBeenCalledWith(
      expect.objectContaining({ connection: 'subscriber', outageMs: 1_500, failedAttempts: 0 }),
      'Redis activity bus connection restored',
    );
  });

  it('starts a fresh outage after recovery and stays quiet on a first, healthy ready', () => {
    reporter.recordReady();
    expect(logger.info).not.toHaveBeenCalled();

    reporter.recordError(refused);
    reporter.recordReady();
    expect(reporter.lastError).toBeUndefined();
    reporter.recordError(refused);

    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(logger.info).toHaveBeenCalledTimes(1);
  });

  it('works without a logger', () => {
    const silent = new ConnectionErrorReporter({ connection: 'publisher', target: 'redis://redis:6379' });
    silent.recordError(refused);
    silent.recordDisconnect();
    silent.recordReady();
    expect(silent.lastError).toBeUndefined();
  });
});
