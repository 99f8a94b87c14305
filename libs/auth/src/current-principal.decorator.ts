import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** The principal the global guard authenticated (`request.user`). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): unknown => {
  return context.switchToHttp().getRequest<{ user?: unknown }>().user;
});
