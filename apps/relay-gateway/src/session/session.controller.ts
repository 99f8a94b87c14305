import { Controller, Get, UseGuards } from '@nestjs/common';
import { DirectLineAuthGuard } from '../direct-line/direct-line-auth.guard';
import { V3_PREFIXES } from '../direct-line/v3-paths';

/** Web Chat's OAuth sign-in helper; no session cookies here, so the id is empty (DirectLineJS treats that as none). */
@Controller(V3_PREFIXES.map((prefix) => `${prefix}/session`))
@UseGuards(DirectLineAuthGuard)
export class SessionController {
  @Get('getsessionid')
  getSessionId(): { sessionId: string } {
    return { sessionId: '' };
  }
}
