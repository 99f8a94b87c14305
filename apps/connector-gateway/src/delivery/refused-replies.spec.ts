import { ServiceUnavailableException } from '@nestjs/common';
import { AppendNotReplicatedError } from '@fieldops/conversation-store';
import { badArgument } from '@fieldops/contracts';
import { loadEnvironment, type Logger } from '@fieldops/platform';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { isPlatformRefusal, RefusedReplies } from './refused-replies';

const logger = { warn: () => undefined } as unknown as Logger;

describe('RefusedReplies (in this process, without REDIS_URL)', () => {
  it('remembers a refused reply per conversation and replied-to activity', async () => {
    const refused = new RefusedReplies(loadEnvironment(ConnectorGatewayEnvironment, {}, 'test'), logger);
    await refused.note('c1', 'c1|0000003');
    expect(await refused.includes('c1', 'c1|0000003')).toBe(true);
    expect(await refused.includes('c1', 'c1|0000004')).toBe(false);
    expect(await refused.includes('c2', 'c1|0000003')).toBe(false);
    await refused.onApplicationShutdown();
  });
});

describe('isPlatformRefusal', () => {
  it('is a 503 of the platform: a log not replicated, a dependency away', () => {
    expect(isPlatformRefusal(new AppendNotReplicatedError('c1', 0, 1))).toBe(true);
    expect(isPlatformRefusal(new ServiceUnavailableException())).toBe(true);
    expect(isPlatformRefusal(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(true);
  });

  it('is not a refusal of the reply itself (4xx) or a fault', () => {
    expect(isPlatformRefusal(badArgument('bad card'))).toBe(false);
    expect(isPlatformRefusal(new Error('boom'))).toBe(false);
  });
});
