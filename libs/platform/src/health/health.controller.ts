import { Controller, Get, Res } from '@nestjs/common';
import { type Response } from 'express';
import { Public } from '../security/public.decorator';
import { ReadinessRegistry } from './readiness.registry';

@Public()
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessRegistry) {}

  /** Liveness: the process answers. Never checks dependencies (a database blip must not restart pods). */
  @Get('healthz')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: 200 when every dependency answers, 503 with a body naming what is down. */
  @Get('readyz')
  async ready(@Res() response: Response): Promise<void> {
    const report = await this.readiness.report();
    response
      .status(report.ready ? 200 : 503)
      .json({ status: report.ready ? 'ok' : 'unavailable', checks: report.checks });
  }
}
