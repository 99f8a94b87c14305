import { Body, Controller, Get, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { type Response } from 'express';
import { type ActivitySet } from '@fieldops/contracts';
import { RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { type Credential } from '../direct-line/credentials';
import { DirectLineAuthGuard, DirectLineCredential } from '../direct-line/direct-line-auth.guard';
import { V3_PREFIXES } from '../direct-line/v3-paths';
import { ActivitiesService } from './activities.service';
import { validateClientActivity } from './activity-validation';
import { writeSendAnswer } from './send-answer';

/** The send is usually answered before routing, by ActivitySendRoute (the same steps); this handler takes the rest. */
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
    writeSendAnswer(response, await this.activities.send(credential, conversationId, activity));
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
