import { SetMetadata } from '@nestjs/common';

export const ANONYMOUS_BOTS_KEY = 'fieldops:anonymous-bots';

/**
 * The route also takes requests with no Authorization header at all (`@CallingBot()` is then undefined); the
 * handler must admit them only for resources of a bot registered `anonymous: true`. A header that is present
 * is still verified (401 when invalid).
 */
export const AnonymousBotsAllowed = (): MethodDecorator & ClassDecorator =>
  SetMetadata(ANONYMOUS_BOTS_KEY, true);
