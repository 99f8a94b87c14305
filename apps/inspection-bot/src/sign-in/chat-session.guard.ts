import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { ChatSessions, type LiveSession } from './chat-sessions';
import { NOT_SIGNED_IN } from './session.controller';

type RequestWithSession = Request & { chatSession?: LiveSession };

/**
 * A route for signed-in people only: the session cookie is checked (and renewed) before the body is read
 * (BodyParsingInterceptor runs after guards), so a request without a live session is a 401 `NotSignedIn` with its body
 * unread. The handler finds the session with `sessionOf(request)`.
 */
@Injectable()
export class ChatSessionGuard implements CanActivate {
  constructor(private readonly sessions: ChatSessions) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<RequestWithSession>();
    const live = await this.sessions.current(request, http.getResponse<Response>());
    if (!live) throw NOT_SIGNED_IN();
    request.chatSession = live;
    return true;
  }
}

/** The live session ChatSessionGuard found for this request. */
export function sessionOf(request: Request): LiveSession {
  const live = (request as RequestWithSession).chatSession;
  if (!live) throw NOT_SIGNED_IN();
  return live;
}
