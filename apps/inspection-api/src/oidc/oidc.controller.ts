import { All, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExcludeEndpoint,
  ApiFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Public } from '@fieldops/platform';
import { type Request, type Response } from 'express';
import { TokenPairDto } from '../auth/dto/token.dto';
import { TokensService } from '../auth/tokens.service';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { DrfException, isFieldErrors, notFound, validationError } from '../drf/exceptions';
import { Body, type RequestInput } from '../drf/request-input';
import { otherMethod, postActions, ROOT_METHODS, TOKEN_METHODS } from '../drf/routes';
import { validateInput } from '../drf/serializer';
import { requestOrigin } from '../drf/pagination';
import { OIDC_CODE_FIELDS, OIDC_CODE_INFO, OidcCodeDto, SignInOptionsDto } from './dto/oidc.dto';
import { returnAddress, withOutcome } from './oidc-return-address';
import { OidcSignInService } from './oidc-sign-in.service';
import { OidcSignInStore } from './oidc-sign-in-store';

const noRelations = (): Promise<Set<number>> => Promise.resolve(new Set());
const first = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : Array.isArray(value) && typeof value[0] === 'string'
      ? value[0]
      : undefined;

/**
 * Sign-in through the company's OpenID Connect provider. A page sends the browser to `GET /api/oidc/login/?next=…`;
 * the provider sends it back to `GET /api/oidc/callback/`, which returns it to `next` with a one-time `oidc_code`
 * (or an `oidc_error`); the page (or its server) exchanges the code at `POST /api/oidc/token/` for the usual
 * simplejwt pair. No bearer header anywhere.
 */
@ApiTags('token')
@Public()
@Controller('api/oidc')
export class OidcController {
  constructor(
    private readonly environment: InspectionApiEnvironment,
    private readonly signIn: OidcSignInService,
    private readonly store: OidcSignInStore,
    private readonly tokens: TokensService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'How people sign in here: the provider (if any) and whether passwords are accepted',
  })
  @ApiOkResponse({ type: SignInOptionsDto })
  options(@Req() request: Request): SignInOptionsDto {
    const origin = requestOrigin(request);
    return {
      provider: this.signIn.enabled
        ? { name: this.environment.INSPECTION_OIDC_NAME, login_url: `${origin}/api/oidc/login/` }
        : null,
      local_passwords: this.environment.INSPECTION_LOCAL_PASSWORDS,
    };
  }

  @Get('login')
  @ApiOperation({
    summary: 'Start a sign-in at the provider (authorization code + PKCE); `next` is where it returns to',
  })
  @ApiFoundResponse({ description: 'To the provider' })
  async login(
    @Query('next') next: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    if (!this.signIn.enabled) throw notFound();
    const origin = requestOrigin(request);
    const returnTo = returnAddress(
      first(next) ?? '/console/',
      origin,
      this.environment.INSPECTION_OIDC_RETURN_ORIGINS,
    );
    if (!returnTo) {
      throw validationError({
        next: ['Enter a path on this site or an address on an origin in INSPECTION_OIDC_RETURN_ORIGINS.'],
      });
    }
    let destination: string;
    try {
      destination = (await this.signIn.start(returnTo, `${origin}/api/oidc/callback/`)).href;
    } catch {
      destination = withOutcome(returnTo, { oidc_error: 'temporarily_unavailable' });
    }
    response.setHeader('Cache-Control', 'no-store');
    response.redirect(302, destination);
  }

  @Get('callback')
  @ApiExcludeEndpoint()
  async callback(
    @Query('state') state: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const origin = requestOrigin(request);
    const signedState = first(state);
    const outcome = signedState
      ? await this.signIn.complete(signedState, new URL(request.originalUrl, `${origin}/`))
      : { kind: 'expired' as const };
    if (outcome.kind === 'expired') {
      throw new DrfException(400, {
        detail: 'This sign-in has expired or was already used. Start again from the sign-in page.',
        code: 'sign_in_expired',
      });
    }
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Referrer-Policy', 'no-referrer');
    response.redirect(
      302,
      withOutcome(
        outcome.returnTo,
        outcome.kind === 'signed-in' ? { oidc_code: outcome.code } : { oidc_error: outcome.error },
      ),
    );
  }

  @Post('token')
  @ApiOperation({ summary: "Exchange a sign-in's one-time code for an access and refresh token pair" })
  @ApiBody({ type: OidcCodeDto })
  @ApiCreatedResponse({ type: TokenPairDto })
  @ApiUnauthorizedResponse({
    description: '{"detail":"The sign-in code is invalid, expired or already used.","code":"code_not_valid"}',
  })
  async token(@Body() body: RequestInput): Promise<object> {
    const { values, errors } = await validateInput(body.read(), OIDC_CODE_FIELDS, {
      partial: false,
      existingIds: noRelations,
    });
    if (isFieldErrors(errors)) throw validationError(errors);
    const userId = await this.store.takeCode(values.code as string);
    if (userId === undefined) {
      throw new DrfException(401, {
        detail: 'The sign-in code is invalid, expired or already used.',
        code: 'code_not_valid',
      });
    }
    return this.tokens.pair(userId);
  }

  @All()
  @ApiExcludeEndpoint()
  optionsOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, ROOT_METHODS, 'Sign In Options');
  }

  @All('login')
  @ApiExcludeEndpoint()
  loginOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, ROOT_METHODS, 'Sign In');
  }

  @All('callback')
  @ApiExcludeEndpoint()
  callbackOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, ROOT_METHODS, 'Sign In Callback');
  }

  @All('token')
  @ApiExcludeEndpoint()
  tokenOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, TOKEN_METHODS, 'Sign In Token', postActions(OIDC_CODE_INFO));
  }
}
