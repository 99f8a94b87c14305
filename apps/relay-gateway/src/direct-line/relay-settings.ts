import { type PlatformConfig } from '@fieldops/platform-config';

/** Injection token of the platform configuration the relay was started with. */
export const PLATFORM_CONFIG = Symbol('PLATFORM_CONFIG');

export type { PlatformConfig };
