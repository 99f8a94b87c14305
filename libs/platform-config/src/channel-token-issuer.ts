/** The SDKs a bot may be built with; they differ in where they read the channel's signing keys from. */
export const BOT_SDKS = ['botbuilder', 'agents'] as const;
export type BotSdk = (typeof BOT_SDKS)[number];

/**
 * The `iss` botbuilder expects by default (`ToBotFromChannelTokenIssuer`). The Agents SDK fetches the keys of this
 * issuer from a fixed Microsoft address, so Agents SDK bots must get another one.
 */
export const BOTBUILDER_CHANNEL_TOKEN_ISSUER = 'https://api.botframework.com';

/** The tenant the connector's token path serves first (CONNECTOR_TOKEN_TENANTS' default). */
export const DEFAULT_CHANNEL_TOKEN_TENANT = 'botframework.com';

/**
 * The `iss` of channel tokens for Agents SDK bots: the v1 Entra issuer form of `tenant`, which is one of the issuers
 * the SDK accepts by default for `tenantId=<tenant>` when `validateIssuer` is on; for any issuer but
 * `https://api.botframework.com` the SDK reads the keys from `{authorityEndpoint}/{tenantId}/discovery/v2.0/keys`.
 */
export function agentsChannelTokenIssuer(tenant: string): string {
  return `https://sts.windows.net/${tenant}/`;
}

/** The platform-wide settings a bot's channel-token issuer falls back to. */
export interface ChannelTokenIssuerDefaults {
  /** For botbuilder bots (connector-gateway's CONNECTOR_BOT_TOKEN_ISSUER); default `https://api.botframework.com`. */
  botbuilder?: string;
  /** The first of CONNECTOR_TOKEN_TENANTS (default `botframework.com`), for Agents SDK bots. */
  tenant?: string;
}

/**
 * The `iss` of the tokens the connector sends to `bot`: its explicit `channelTokenIssuer`, else the default of its
 * SDK. The connector mints with it and the launcher hands it to the bundled bot (`ToBotFromChannelTokenIssuer`).
 */
export function channelTokenIssuerOf(
  bot: { readonly sdk?: BotSdk; readonly channelTokenIssuer?: string },
  defaults: ChannelTokenIssuerDefaults = {},
): string {
  if (bot.channelTokenIssuer !== undefined) return bot.channelTokenIssuer;
  if (bot.sdk === 'agents') return agentsChannelTokenIssuer(defaults.tenant ?? DEFAULT_CHANNEL_TOKEN_TENANT);
  return defaults.botbuilder ?? BOTBUILDER_CHANNEL_TOKEN_ISSUER;
}
