import { Controller, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { CloudAdapter } from 'botbuilder';
import { type Request, type Response } from 'express';
import { ErrorEnvelopeException, LOGGER, type Logger } from '@fieldops/platform';
import { BotTokenGuard } from './bot-token.guard';
import { InspectionBot } from '../dialog/inspection-bot';
import { LibraryConsole } from '../logging/library-console';

/** What CloudAdapter can process: a JSON object with a string `type` (anything else made it throw: a 500). */
function isActivity(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    typeof (body as { type?: unknown }).type === 'string' &&
    (body as { type: string }).type !== ''
  );
}

/**
 * The bot's messaging endpoint: connector-gateway POSTs activities here. The token is checked before the body is
 * read (BotTokenGuard: 401, body unread), the body must be an activity (400 `BadArgument`), then CloudAdapter checks
 * the token against the activity and runs the turn. What botbuilder prints about a refused or failed activity
 * becomes one JSON log line with its reason.
 */
@Controller('api')
export class MessagesController {
  constructor(
    private readonly adapter: CloudAdapter,
    private readonly bot: InspectionBot,
    private readonly libraryConsole: LibraryConsole,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Post('messages')
  @UseGuards(BotTokenGuard)
  async messages(@Req() request: Request, @Res() response: Response): Promise<void> {
    if (!isActivity(request.body)) {
      throw new ErrorEnvelopeException(
        400,
        'BadArgument',
        'The body must be an activity: a JSON object with a type.',
      );
    }
    const { lines } = await this.libraryConsole.collect(() =>
      this.adapter.process(request, response, (context) => this.bot.run(context)),
    );
    const reason = lines.join(' | ') || undefined;
    if (response.statusCode === 401) {
      this.logger.warn({ status: 401, reason }, 'activity refused: authentication failed');
    } else if (response.statusCode >= 400) {
      this.logger.error({ status: response.statusCode, reason }, 'activity failed');
    } else if (reason) {
      this.logger.warn({ reason }, 'botbuilder reported a problem');
    }
  }
}
