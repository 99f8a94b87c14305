import { type ActivityBus } from './activity-bus';
import { type ActivityBusLogger } from './activity-bus-logger';
import { InProcessActivityBus } from './in-process-activity-bus';
import { RedisActivityBus } from './redis-activity-bus';

export interface CreateActivityBusOptions {
  /** When set (non-blank), the bus uses Redis pub/sub; otherwise it is in-process. */
  redisUrl?: string;
  /** Redis channel prefix; ignored by the in-process bus. */
  channelPrefix?: string;
  logger?: ActivityBusLogger;
}

/** Picks the Redis bus when a Redis URL is configured and the in-process bus otherwise. */
export function createActivityBus(options: CreateActivityBusOptions = {}): ActivityBus {
  const redisUrl = options.redisUrl?.trim();
  if (redisUrl) {
    return new RedisActivityBus({ redisUrl, channelPrefix: options.channelPrefix, logger: options.logger });
  }
  return new InProcessActivityBus({ logger: options.logger });
}
