import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { type IncomingMessage } from 'node:http';
import { notFound, unauthorized } from '@fieldops/contracts';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * The internal API (relay → connector): `Authorization: Bearer <CONNECTOR_INTERNAL_KEY>`, compared in
 * constant time. Without a configured key the internal API does not exist (404).
 */
@Injectable()
export class InternalKeyGuard implements CanActivate {
  private readonly expected: Buffer | undefined;

  constructor(environment: ConnectorGatewayEnvironment) {
    const key = environment.CONNECTOR_INTERNAL_KEY;
    this.expected = key === undefined ? undefined : digest(key);
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.expected) throw notFound('Not found');
    // Node's own header (the request may not be Express's: the front's hot routes run this guard too).
    const header = context.switchToHttp().getRequest<IncomingMessage>().headers.authorization ?? '';
    const match = /^Bearer (\S+)$/.exec(header);
    if (!match?.[1] || !timingSafeEqual(digest(match[1]), this.expected))
      throw unauthorized('A valid internal key is required.');
    return true;
  }
}
