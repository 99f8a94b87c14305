import { describeScaleOut } from './support/scale-out-scenario';

describeScaleOut(
  'sentinel',
  'scale-out on a Sentinel-managed primary (primary, replica, 3 sentinels): two relays, a failover, nothing lost',
);
