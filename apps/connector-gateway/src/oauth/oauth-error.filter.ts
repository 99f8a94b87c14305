import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { LOGGER, type Logger, publicBaseUrl } from '@fieldops/platform';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { OAuthError } from './oauth-error';
import { correlationIdOf } from './request-correlation';

/** Renders OAuthError as RFC 6749 §5.2 JSON (Azure AD flavour) instead of the Bot Connector envelope. */
@Catch(OAuthError)
export class OAuthErrorFilter implements ExceptionFilter<OAuthError> {
  constructor(
    private readonly environment: ConnectorGatewayEnvironment,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  catch(exception: OAuthError, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const body = exception.toBody(
      publicBaseUrl(request, this.environment.CONNECTOR_PUBLIC_URL),
      correlationIdOf(request),
    );
    this.logger.info(
      {
        error: body.error,
        aadCode: exception.aadCode,
        traceId: body.trace_id,
        correlationId: body.correlation_id,
      },
      `token request refused: ${exception.message}`,
    );
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Pragma', 'no-cache');
    response.status(exception.status).json(body);
  }
}
