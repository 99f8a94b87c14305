import { describeScaleOut } from './support/scale-out-scenario';

describeScaleOut(
  'cluster',
  'scale-out on a Redis Cluster (3 primaries, 3 replicas): two relays, sharded pub/sub, a primary failover, nothing lost',
);
