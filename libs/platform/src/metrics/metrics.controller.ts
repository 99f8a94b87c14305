import { Controller, Get, Inject, NotFoundException, Req, Res, UnauthorizedException } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { Registry } from 'prom-client';
import { Public } from '../security/public.decorator';
import { METRICS_CHALLENGE, MetricsExposure } from './metrics-exposure';

@Public()
@Controller()
export class MetricsController {
  constructor(
    @Inject(Registry) private readonly registry: Registry,
    private readonly exposure: MetricsExposure,
  ) {}

  /**
   * Prometheus text exposition of this service's registry. Absent (the app's 404) when a separate metrics port is
   * configured; 401 in the app's wire format without the configured bearer token.
   */
  @Get('metrics')
  async metrics(@Req() request: Request, @Res() response: Response): Promise<void> {
    if (!this.exposure.servedOnAppPort) throw new NotFoundException();
    if (!this.exposure.authorizes(request.headers.authorization)) {
      response.setHeader('WWW-Authenticate', METRICS_CHALLENGE);
      throw new UnauthorizedException('Authentication credentials were not provided or are invalid.');
    }
    response.setHeader('Content-Type', this.registry.contentType);
    response.send(await this.registry.metrics());
  }
}
