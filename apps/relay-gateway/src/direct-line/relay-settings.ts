import { type PlatformConfig } from '@fieldops/platform-config';

/** Injection token of the platform configuration the relay was started with. */
export const PLATFORM_CONFIG = Symbol('PLATFORM_CONFIG');

export type { PlatformConfig };

/** The two route prefixes of Direct Line 3.0 served by the same handlers. */
export const V3_PREFIXES = ['v3/directline', 'v3/relay'];
