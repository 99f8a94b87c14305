import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { type Response } from 'express';
import { type ActivitySet } from '@fieldops/contracts';
import { RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { type Credential } from '../direct-line/credentials';
import { DirectLineAuthGuard, DirectLineCredential } from '../direct-line/direct-line-auth.guard';
import { V3_PREFIXES } from '../direct-line/relay-settings';
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
  @HttpCode(200)
  async send(
    @DirectLineCredential() credential: Credential,
    @Param('conversationId') conversationId: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ id: string }> {
    const activity = validateClientActivity(body, this.environment.RELAY_MAX_ACTIVITY_BYTES);
    const result = await this.activities.send(credential, conversationId, activity);
    response.setHeader('Server-Timing', `relay;dur=${result.processingMs.toFixed(3)}`);
    return { id: result.id };
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
