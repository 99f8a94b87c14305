import { Body, Controller, Get, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { type Response } from 'express';
import { type ActivitySet } from '@fieldops/contracts';
import { RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { type Credential } from '../direct-line/credentials';
import { DirectLineAuthGuard, DirectLineCredential } from '../direct-line/direct-line-auth.guard';
import { V3_PREFIXES } from '../direct-line/v3-paths';
import { ActivitiesService } from './activities.service';
import { validateClientActivity } from './activity-validation';

@Controller(V3_PREFIXES.map((prefix) => `${prefix}/conversations/:conversationId/activities`))
@UseGuards(DirectLineAuthGuard)
export class ActivitiesController {
  constructor(
    private readonly activities: ActivitiesService,
    private readonly environment: RelayGatewayEnvironment,
  ) {}

  @Post()
  async send(
    @DirectLineCredential() credential: Credential,
    @Param('conversationId') conversationId: string,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const activity = validateClientActivity(body, this.environment.RELAY_MAX_ACTIVITY_BYTES);
    const result = await this.activities.send(credential, conversationId, activity);
    response.setHeader('Server-Timing', `relay;dur=${result.processingMs.toFixed(3)}`);
    // An invoke gets the bot's invoke response (status and body); a bot that sent no body gets the id, as any send.
    const status = result.invokeResponse?.status ?? 200;
    response.status(status).json(result.invokeResponse?.body ?? { id: result.id });
  }

  @Get()
  poll(
    @DirectLineCredential() credential: Credential,
    @Param('conversationId') conversationId: string,
    @Query('watermark') watermark: unknown,
  ): Promise<ActivitySet> {
    return this.activities.poll(credential, conversationId, watermark);
  }
}
