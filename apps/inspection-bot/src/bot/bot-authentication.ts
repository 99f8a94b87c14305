import { ConfidentialClientApplication } from '@azure/msal-node';
import { ConfigurationBotFrameworkAuthentication } from 'botbuilder';
import {
  MsalServiceClientCredentialsFactory,
  type ServiceClientCredentials,
  ServiceClientCredentialsFactory,
} from 'botframework-connector';
import { type InspectionBotEnvironment } from '../config/inspection-bot.environment';

/** The keys ConfigurationBotFrameworkAuthentication reads (all seven endpoint keys set: no per-key fallback). */
export function botbuilderSettings(
  environment: InspectionBotEnvironment,
): Record<string, string | undefined> {
  return {
    MicrosoftAppId: environment.MicrosoftAppId,
    MicrosoftAppPassword: environment.MicrosoftAppPassword,
    MicrosoftAppType: environment.MicrosoftAppType,
    MicrosoftAppTenantId: environment.MicrosoftAppTenantId,
    ToChannelFromBotLoginUrl: environment.ToChannelFromBotLoginUrl,
    ToChannelFromBotOAuthScope: environment.ToChannelFromBotOAuthScope,
    ToBotFromChannelTokenIssuer: environment.ToBotFromChannelTokenIssuer,
    ToBotFromChannelOpenIdMetadataUrl: environment.ToBotFromChannelOpenIdMetadataUrl,
    ToBotFromEmulatorOpenIdMetadataUrl: environment.ToBotFromEmulatorOpenIdMetadataUrl,
    OAuthUrl: environment.OAuthUrl,
    CallerId: environment.CallerId,
  };
}

/** The label msal is given as authority (a reserved domain it never contacts: the metadata comes from the connector). */
const AUTHORITY_HOST = 'connector.gateway.invalid';

/**
 * Password credentials through connector-gateway's token endpoint (docs/protocols/bot-connector.md, token endpoint, mode 3: msal with known-authority
 * metadata). The OpenID configuration is read from `ToChannelFromBotLoginUrl` on first use, not at start-up, so
 * the bot may start before the connector; a failed read is retried on the next call.
 */
export class ConnectorPasswordCredentialsFactory extends ServiceClientCredentialsFactory {
  private factory: Promise<MsalServiceClientCredentialsFactory> | undefined;

  constructor(
    private readonly appId: string,
    private readonly password: string,
    private readonly loginUrl: string,
    private readonly tenant: string,
    private readonly defaultAudience: string,
  ) {
    super();
  }

  isValidAppId(appId: string): Promise<boolean> {
    return Promise.resolve(appId === this.appId);
  }

  isAuthenticationDisabled(): Promise<boolean> {
    return Promise.resolve(false);
  }

  async createCredentials(
    appId: string,
    audience: string | undefined,
    loginEndpoint: string,
    validateAuthority: boolean,
  ): Promise<ServiceClientCredentials> {
    const factory = await (this.factory ??= this.createFactory().catch((error: unknown) => {
      this.factory = undefined;
      throw error;
    }));
    return factory.createCredentials(
      appId,
      audience ?? this.defaultAudience,
      loginEndpoint,
      validateAuthority,
    );
  }

  private async createFactory(): Promise<MsalServiceClientCredentialsFactory> {
    const url = `${this.loginUrl}/v2.0/.well-known/openid-configuration`;
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    const authorityMetadata = await response.text();
    const msal = new ConfidentialClientApplication({
      auth: {
        clientId: this.appId,
        clientSecret: this.password,
        authority: `https://${AUTHORITY_HOST}/${this.tenant}`,
        knownAuthorities: [AUTHORITY_HOST],
        authorityMetadata,
      },
    });
    return new MsalServiceClientCredentialsFactory(this.appId, msal);
  }
}

/**
 * The bot's authentication from its environment, in one of connector-gateway's documented modes: anonymous
 * (no MicrosoftAppId), managed identity over http (MicrosoftAppType=UserAssignedMsi; @azure/identity reads
 * IDENTITY_ENDPOINT/IDENTITY_HEADER), or app id + password through msal with the connector's metadata.
 */
export function createBotFrameworkAuthentication(
  environment: InspectionBotEnvironment,
): ConfigurationBotFrameworkAuthentication {
  const settings = botbuilderSettings(environment);
  const passwordMode =
    environment.MicrosoftAppId !== '' && environment.MicrosoftAppType?.toLowerCase() !== 'userassignedmsi';
  if (!passwordMode) return new ConfigurationBotFrameworkAuthentication(settings);
  const tenant =
    new URL(environment.ToChannelFromBotLoginUrl).pathname.replace(/^\/+|\/+$/g, '') || 'botframework.com';
  return new ConfigurationBotFrameworkAuthentication(
    settings,
    new ConnectorPasswordCredentialsFactory(
      environment.MicrosoftAppId,
      environment.MicrosoftAppPassword,
      environment.ToChannelFromBotLoginUrl,
      tenant,
      environment.ToChannelFromBotOAuthScope,
    ),
  );
}
