import { type PlatformConfig } from '@fieldops/platform-config';
import { type RegisteredBot } from './registered-bot';

/**
 * The registry's input from the shared platform configuration file (secrets already resolved by
 * `loadPlatformConfig`). Validation of the connector-specific fields is `validateRegisteredBots`'s.
 */
export function registeredBotsFromPlatformConfig(config: PlatformConfig): RegisteredBot[] {
  return config.bots.map((bot) => ({
    id: bot.id,
    appId: bot.appId,
    displayName: bot.name,
    messagingEndpoint: bot.messagingEndpoint,
    ...(bot.appPassword !== undefined && { appPassword: bot.appPassword }),
    ...(bot.appPasswordHash !== undefined && { appPasswordHash: bot.appPasswordHash }),
    ...(bot.certificates !== undefined && {
      certificates: bot.certificates.map((certificate) => ({ ...certificate })),
    }),
    ...(bot.managedIdentity !== undefined && { managedIdentity: bot.managedIdentity }),
    ...(bot.anonymous !== undefined && { anonymous: bot.anonymous }),
    ...(bot.sdk !== undefined && { sdk: bot.sdk }),
    ...(bot.channelTokenIssuer !== undefined && { channelTokenIssuer: bot.channelTokenIssuer }),
    ...(bot.identityHeader !== undefined && { identityHeader: bot.identityHeader }),
    ...(bot.oauthConnections !== undefined && { oauthConnections: bot.oauthConnections }),
  }));
}
