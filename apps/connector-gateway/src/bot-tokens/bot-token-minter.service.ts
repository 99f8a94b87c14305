import { Injectable } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import { KeyRing } from '@fieldops/auth';
import { ConfigurationError } from '@fieldops/platform';
import { type BotSdk, channelTokenIssuerOf } from '@fieldops/platform-config';
import { BotRegistry } from '../bots/bot-registry';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';

export interface MintedBotToken {
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** Tokens are reused until this long before they expire (bots accept them for 300 s past `exp` anyway). */
const REUSE_MARGIN_MS = 5 * 60 * 1000;

/** What decides a bot's token: its app id (`aud`) and what its issuer comes from. */
export interface MintedFor {
  appId: string;
  sdk?: BotSdk;
  channelTokenIssuer?: string;
}

/**
 * Mints the bearer tokens the gateway sends with activities to a bot, with exactly what botbuilder's
 * channel validation checks: header `{alg: RS256, typ: JWT, kid, x5t}`, payload `{iss, aud: <bot app id>,
 * serviceurl: <the activity's serviceUrl>, nbf, exp}` — no `ver`, `appid` or `tid`, which would send
 * botbuilder down its skill or emulator paths. `iss` is the bot's (`channelTokenIssuerOf`): botbuilder bots get
 * CONNECTOR_BOT_TOKEN_ISSUER, Agents SDK bots an issuer whose keys their SDK reads from the gateway's
 * `/{tenant}/discovery/v2.0/keys`. Tokens are cached per (bot, issuer, serviceUrl, signing key).
 */
@Injectable()
export class BotTokenMinter {
  private readonly cache = new Map<string, MintedBotToken>();

  constructor(
    private readonly keyRing: KeyRing,
    private readonly environment: ConnectorGatewayEnvironment,
    registry: BotRegistry,
  ) {
    // A channel token must never pass for one of the gateway's own access tokens (same keys): refuse to start.
    const problems = registry
      .all()
      .filter((bot) => this.issuerOf(bot) === environment.CONNECTOR_TOKEN_ISSUER)
      .map(
        (bot) =>
          `bots[${bot.id}].channelTokenIssuer: must differ from CONNECTOR_TOKEN_ISSUER (both kinds of token share the signing keys)`,
      );
    if (problems.length > 0) throw new ConfigurationError('bots', problems);
  }

  /** The `iss` of the tokens sent to `bot`. */
  issuerOf(bot: MintedFor): string {
    return channelTokenIssuerOf(bot, {
      botbuilder: this.environment.CONNECTOR_BOT_TOKEN_ISSUER,
      tenant: this.environment.CONNECTOR_TOKEN_TENANTS[0],
    });
  }

  mint(bot: MintedFor, serviceUrl: string): MintedBotToken {
    const key = this.keyRing.signingKey();
    const issuer = this.issuerOf(bot);
    const appId = bot.appId;
    const cacheKey = JSON.stringify([appId, issuer, serviceUrl, key.kid]);
    const now = Date.now();
    const cached = this.cache.get(cacheKey);
    if (cached && cached.expiresAt - REUSE_MARGIN_MS > now) return cached;
    const notBefore = Math.floor(now / 1000);
    const expires = notBefore + this.environment.CONNECTOR_TOKEN_LIFETIME_SECONDS;
    const token = jwt.sign(
      {
        iss: issuer,
        aud: appId,
        serviceurl: serviceUrl,
        nbf: notBefore,
        iat: notBefore,
        exp: expires,
      },
      key.signingMaterial,
      { header: { alg: 'RS256', typ: 'JWT', kid: key.kid, x5t: key.kid } },
    );
    const minted = { token, expiresAt: expires * 1000 };
    for (const [entry, value] of this.cache)
      if (value.expiresAt - REUSE_MARGIN_MS <= now) this.cache.delete(entry);
    this.cache.set(cacheKey, minted);
    return minted;
  }
}
