import { type JsonBodyOptions } from '@fieldops/platform';
import { type RelayGatewayEnvironment } from '../config/relay-gateway.environment';

/**
 * How the relay reads JSON bodies, on the framework's routes and on the send route alike: a limit above the activity
 * limit (oversize activities get 413 MessageSizeTooBig from validation, not the parser), nesting up to JSON_MAX_DEPTH,
 * and no `\u0000` (no client means it; bots and stores downstream would keep it).
 */
export function relayJsonBody(environment: RelayGatewayEnvironment): JsonBodyOptions {
  return {
    limit: environment.RELAY_MAX_ACTIVITY_BYTES * 4,
    maxDepth: environment.JSON_MAX_DEPTH,
    refuseNul: true,
  };
}
