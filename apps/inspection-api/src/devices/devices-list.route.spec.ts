import { type IncomingMessage } from 'node:http';
import { type ExecutionContext } from '@nestjs/common';
import { type JwtAuthGuardInstance } from '@fieldops/auth';
import { permissionDenied } from '../auth/role-access';
import { hostCheck } from '../hosts/allowed-hosts';
import { type DevicesController } from './devices.controller';
import { devicesListRoute } from './devices-list.route';

const VERIFIED = 'Bearer verified.token';

/** What the route asks the guards: a header verified before, and the role check (refuses `refused`). */
const authentication: JwtAuthGuardInstance = {
  canActivate: () => true,
  activatesWithoutVerifying(context: ExecutionContext) {
    const request = context.switchToHttp().getRequest<IncomingMessage & { user?: unknown }>();
    if (request.headers.authorization !== VERIFIED) return false;
    request.user = { role: request.headers['x-role'] ?? 'supervisor' };
    return true;
  },
};
const roles = {
  canActivate(context: ExecutionContext) {
    if (context.switchToHttp().getRequest<{ user: { role: string } }>().user.role === 'refused')
      throw permissionDenied();
    return true;
  },
};

const route = devicesListRoute({
  controller: {} as DevicesController,
  authentication,
  roles,
  checkHost: hostCheck(['.localhost'], undefined),
  filter: { catch: () => undefined },
});

function incoming(url: string, headers: Record<string, string> = {}): IncomingMessage {
  return {
    method: 'GET',
    url,
    headers: { host: 'api.localhost:8000', authorization: VERIFIED, ...headers },
    socket: {},
  } as unknown as IncomingMessage;
}

describe('devicesListRoute', () => {
  it('claims the list with a verified plain bearer header, setting what the handler and metrics read', () => {
    const request = incoming('/api/devices/?page=2') as IncomingMessage & Record<string, unknown>;
    expect(route.claim(request)?.route).toBe('/api/devices');
    expect(request.originalUrl).toBe('/api/devices/?page=2');
    expect(request.fieldopsOrigin).toBe('http://api.localhost:8000');
    expect(route.claim(incoming('/api/devices'))).toBeDefined();
  });

  it.each([
    ['another path', incoming('/api/devices/1/')],
    ['another spelling', incoming('/API/devices/')],
    ['a token not verified yet', incoming('/api/devices/', { authorization: 'Bearer other.token' })],
    ['a header to normalise', incoming('/api/devices/', { authorization: 'Bearer  verified.token' })],
    ['no credentials', incoming('/api/devices/', { authorization: '' })],
    ['a disallowed host', incoming('/api/devices/', { host: 'evil.invalid' })],
    ['forwarded headers', incoming('/api/devices/', { 'x-forwarded-host': 'api.localhost' })],
    ['a body', incoming('/api/devices/', { 'content-length': '2' })],
    ['a role refusal', incoming('/api/devices/', { 'x-role': 'refused' })],
  ])('leaves %s to the framework, without a principal', (_case, request) => {
    expect(route.claim(request)).toBeUndefined();
    expect((request as IncomingMessage & { user?: unknown }).user).toBeUndefined();
  });
});
