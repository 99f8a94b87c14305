import { testRedisUrl } from '@fieldops/testing';
import { RedisResourceKeyStore } from './resource-key-store';
import { describeResourceKeyStore } from './resource-key-store.contract-spec';

/** The Redis store, on REDIS_URL (the int tier's services), against the stores' contract. */
const redisUrl = testRedisUrl();
describeResourceKeyStore(
  'redis',
  () => new RedisResourceKeyStore(redisUrl, `test:ai-key-store:${Date.now()}:`),
);
