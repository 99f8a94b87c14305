import { randomBytes } from 'node:crypto';
import { Controller, Get, Req, Res, UseGuards } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { DIRECT_LINE_SESSION_COOKIE } from '@fieldops/contracts';
import { DirectLineAuthGuard } from '../direct-line/direct-line-auth.guard';
import { V3_PREFIXES } from '../direct-line/v3-paths';

const SESSION_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The session cookie a request carries, when it has the expected shape. */
function sessionOf(request: Request): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index < 0 || part.slice(0, index).trim() !== DIRECT_LINE_SESSION_COOKIE) continue;
    const value = part.slice(index + 1).trim();
    if (SESSION_PATTERN.test(value)) return value;
  }
  return undefined;
}

/**
 * Web Chat's OAuth sign-in helper (DirectLineJS `getSessionId`, a credentialed GET): names the browser with an
 * HttpOnly cookie and answers its value, which Web Chat appends to the sign-in link as `code_challenge`. The
 * connector then hands the token to the bot without a magic code when that same browser signs in
 * (DIRECT_LINE_SESSION_COOKIE). A browser that cannot keep the cookie (a cross-site page: the relay's CORS is
 * bearer-only) gets a session id it does not hold, so its user types the magic code.
 */
@Controller(V3_PREFIXES.map((prefix) => `${prefix}/session`))
@UseGuards(DirectLineAuthGuard)
export class SessionController {
  @Get('getsessionid')
  getSessionId(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): { sessionId: string } {
    const sessionId = sessionOf(request) ?? randomBytes(32).toString('base64url');
    response.setHeader('Cache-Control', 'no-store');
    response.cookie(DIRECT_LINE_SESSION_COOKIE, sessionId, {
      httpOnly: true,
      path: '/',
      sameSite: 'lax',
      secure: request.secure,
      maxAge: 24 * 3600 * 1000,
    });
    return { sessionId };
  }
}
