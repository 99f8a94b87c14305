import { type ExecutionContext } from '@nestjs/common';
import { BotFrameworkError } from '@fieldops/contracts';
import { loadEnvironment } from '@fieldops/platform';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { InternalKeyGuard } from './internal-key.guard';

const KEY = 'k'.repeat(40);

function context(authorization: string | undefined): ExecutionContext {
  const request = {
    // Node's request shape (the guard reads `headers`; Express's request has it too).
    headers: authorization === undefined ? {} : { authorization },
  };
  return { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
}

function statusOf(guard: InternalKeyGuard, authorization: string | undefined): number {
  try {
    guard.canActivate(context(authorization));
    return 200;
  } catch (error) {
    if (error instanceof BotFrameworkError) return error.status;
    throw error;
  }
}

describe('InternalKeyGuard', () => {
  const guard = new InternalKeyGuard(
    loadEnvironment(ConnectorGatewayEnvironment, { CONNECTOR_INTERNAL_KEY: KEY }, 'test'),
  );

  it('admits exactly `Bearer <CONNECTOR_INTERNAL_KEY>`', () => {
    expect(statusOf(guard, `Bearer ${KEY}`)).toBe(200);
    expect(statusOf(guard, `Bearer ${KEY}x`)).toBe(401);
    expect(statusOf(guard, `bearer ${KEY}`)).toBe(401);
    expect(statusOf(guard, KEY)).toBe(401);
    expect(statusOf(guard, undefined)).toBe(401);
  });

  it('hides the internal API (404) while no key is configured', () => {
    const closed = new InternalKeyGuard(loadEnvironment(ConnectorGatewayEnvironment, {}, 'test'));
    expect(statusOf(closed, `Bearer ${KEY}`)).toBe(404);
  });

  it('refuses keys shorter than 32 characters at start-up', () => {
    expect(() =>
      loadEnvironment(ConnectorGatewayEnvironment, { CONNECTOR_INTERNAL_KEY: 'short' }, 'test'),
    ).toThrow(/CONNECTOR_INTERNAL_KEY/);
  });
});
