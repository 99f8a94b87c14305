import { Controller, Post, Req, Res } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { Public } from '@fieldops/platform';
import { AiAuthenticationError, AiAuthenticator } from './ai-authenticator.service';
import { AiTokenService } from './ai-token.service';
import { StsException } from './sts-error';

/**
 * Key → token exchange: `POST /sts/v1.0/issueToken` (any case), key in `Ocp-Apim-Subscription-Key` or the
 * `Subscription-Key` query parameter, empty body. 200 with the JWT as the whole body; 401
 * `{"error":{"code":"401","message":…}}` otherwise (`sts-error.ts`).
 */
@Public()
@Controller()
export class StsController {
  constructor(
    private readonly authenticator: AiAuthenticator,
    private readonly tokens: AiTokenService,
  ) {}

  @Post('sts/v1.0/issueToken')
  async issueToken(@Req() request: Request, @Res() response: Response): Promise<void> {
    const queryKey = Object.entries(request.query).find(
      ([name]) => name.toLowerCase() === 'subscription-key',
    )?.[1];
    const key =
      request.get('ocp-apim-subscription-key') ?? (typeof queryKey === 'string' ? queryKey : undefined);
    try {
      const resource = await this.authenticator.authenticateKeyForExchange(key, request.hostname);
      response
        .status(200)
        .setHeader('Cache-Control', 'no-store')
        .type('application/jwt; charset=us-ascii')
        .send(this.tokens.issue(resource));
    } catch (error) {
      if (!(error instanceof AiAuthenticationError)) throw error;
      this.authenticator.logRefusal(error, 'issueToken');
      throw new StsException('401', error.clientMessage);
    }
  }
}
