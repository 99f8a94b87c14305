import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { type BotPrincipal } from './bot-access-token-verifier';
import { type RequestWithBot } from './bot-bearer.guard';

/** The bot the global BotBearerGuard authenticated (undefined on `@Public()` routes). */
export const CallingBot = createParamDecorator(
  (_data: unknown, context: ExecutionContext): BotPrincipal | undefined =>
    context.switchToHttp().getRequest<RequestWithBot>().bot,
);
