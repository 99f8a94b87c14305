import { DependencyUnavailableException, isDependencyUnavailable } from './dependency-unavailable';

/** An error as ioredis's parser makes it for a Redis error reply (a ReplyError: a message, no code). */
const replyError = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });

describe('isDependencyUnavailable', () => {
  it('knows a server that is away: socket codes, PostgreSQL states, client messages, wrapped ones', () => {
    expect(isDependencyUnavailable(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDependencyUnavailable(Object.assign(new Error('x'), { code: '57P01' }))).toBe(true);
    expect(isDependencyUnavailable(new Error('Connection is closed.'))).toBe(true);
    expect(isDependencyUnavailable({ driverError: { code: '08006' } })).toBe(true);
    expect(isDependencyUnavailable(new DependencyUnavailableException())).toBe(true);
  });

  it('knows the replies of a Redis failover in progress (the fault harness saw MOVED answered 500 on Cluster)', () => {
    for (const message of [
      'MOVED 1594 127.0.0.1:35297',
      'ASK 1594 127.0.0.1:35297',
      'CLUSTERDOWN The cluster is down',
      'TRYAGAIN Multiple keys request during rehashing of slot',
      'LOADING Redis is loading the dataset in memory',
      "READONLY You can't write against a read only replica.",
      'MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to no.',
    ])
      expect([message, isDependencyUnavailable(replyError(message))]).toEqual([message, true]);
  });

  it('leaves other errors alone (a script error, a wrong type, a plain bug)', () => {
    expect(isDependencyUnavailable(replyError('ERR Error running script (call to f_1): bad'))).toBe(false);
    expect(
      isDependencyUnavailable(replyError('WRONGTYPE Operation against a key holding the wrong kind')),
    ).toBe(false);
    expect(isDependencyUnavailable(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(
      false,
    );
    expect(isDependencyUnavailable(new Error('MOVEDX'))).toBe(false);
  });
});
