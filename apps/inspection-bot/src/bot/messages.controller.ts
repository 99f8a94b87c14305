import { Controller, Post, Req, Res } from '@nestjs/common';
import { CloudAdapter } from 'botbuilder';
import { type Request, type Response } from 'express';
import { InspectionBot } from '../dialog/inspection-bot';

/** The bot's messaging endpoint: connector-gateway POSTs activities here (CloudAdapter checks the token). */
@Controller('api')
export class MessagesController {
  constructor(
    private readonly adapter: CloudAdapter,
    private readonly bot: InspectionBot,
  ) {}

  @Post('messages')
  async messages(@Req() request: Request, @Res() response: Response): Promise<void> {
    await this.adapter.process(request, response, (context) => this.bot.run(context));
  }
}
