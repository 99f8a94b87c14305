import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC_KEY = 'fieldops:is-public';

/**
 * Marks a route or controller as needing no authentication. Every app installs a global guard that
 * rejects everything not marked, so a forgotten decorator fails closed.
 */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC_KEY, true);
