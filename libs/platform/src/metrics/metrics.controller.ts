import { Controller, Get, Inject, Res } from '@nestjs/common';
import { type Response } from 'express';
import { Registry } from 'prom-client';
import { Public } from '../security/public.decorator';

@Public()
@Controller()
export class MetricsController {
  constructor(@Inject(Registry) private readonly registry: Registry) {}

  /** Prometheus text exposition of this service's registry. */
  @Get('metrics')
  async metrics(@Res() response: Response): Promise<void> {
    response.setHeader('Content-Type', this.registry.contentType);
    response.send(await this.registry.metrics());
  }
}
