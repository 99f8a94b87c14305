import { Body, Controller, Get, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { FastPath } from '@fieldops/platform';
import { type ServerResponse } from 'node:http';
import { type ActivitySet } from '@fieldops/contracts';
import { RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { type Credential } from '../direct-line/credentials';
import { DirectLineAuthGuard, DirectLineCredential } from '../direct-line/direct-line-auth.guard';
import { V3_PREFIXES } from '../direct-line/v3-paths';
import { ActivitiesService } from './activities.service';
import { validateClientActivity } from './activity-validation';
import { writeSendAnswer } from './send-answer';

@Controller(V3_PREFIXES.map((prefix) => `${prefix}/conversations/:conversationId/activities`))
@UseGuards(DirectLineAuthGuard)
export class ActivitiesController {
  constructor(
    private readonly activities: ActivitiesService,
    private readonly environment: RelayGatewayEnvironment,
  ) {}

  /** The send of every message: also answered before Express by the platform's front (`@FastPath`). */
  @Post()
  @FastPath()
  async send(
    @DirectLineCredential() credential: Credential,
    @Param('conversationId') conversationId: string,
    @Body() body: unknown,
    @Res() response: ServerResponse,
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
