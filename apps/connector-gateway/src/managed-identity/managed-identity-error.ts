import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import { type Response } from 'express';
import { type ManagedIdentityErrorBody } from './dto/managed-identity-token.dto';

/** A refusal of the managed-identity endpoint, rendered in its own `{error, error_description}` shape. */
export class ManagedIdentityError extends Error {
  constructor(
    readonly status: 400 | 401 | 404,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
    this.name = 'ManagedIdentityError';
  }
}

@Catch(ManagedIdentityError)
export class ManagedIdentityErrorFilter implements ExceptionFilter<ManagedIdentityError> {
  catch(exception: ManagedIdentityError, host: ArgumentsHost): void {
    const body: ManagedIdentityErrorBody = {
      error: exception.error,
      error_description: exception.description,
    };
    host.switchToHttp().getResponse<Response>().status(exception.status).json(body);
  }
}
