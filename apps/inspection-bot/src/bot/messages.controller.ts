import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { CloudAdapter } from 'botbuilder';
import { type Request, type Response } from 'express';
import { LOGGER, type Logger } from '@fieldops/platform';
import { InspectionBot } from '../dialog/inspection-bot';
import { LibraryConsole } from '../logging/library-console';

/**
 * The bot's messaging endpoint: connector-gateway POSTs activities here (CloudAdapter checks the token). What
 * botbuilder prints about a refused or failed activity becomes one JSON log line with its reason.
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
  async messages(@Req() request: Request, @Res() response: Response): Promise<void> {
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
