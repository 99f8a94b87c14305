import { Injectable } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import { KeyRing } from '@fieldops/auth';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';

export interface MintedBotToken {
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** Tokens are reused until this long before they expire (bots accept them for 300 s past `exp` anyway). */
const REUSE_MARGIN_MS = 5 * 60 * 1000;

/**
 * Mints the bearer tokens the gateway sends with activities to a bot, with exactly what botbuilder's
 * channel validation checks: header `{alg: RS256, typ: JWT, kid, x5t}`, payload `{iss, aud: <bot app id>,
 * serviceurl: <the activity's serviceUrl>, nbf, exp}` — no `ver`, `appid` or `tid`, which would send
 * botbuilder down its skill or emulator paths. Tokens are cached per (bot, serviceUrl, signing key).
 */
@Injectable()
export class BotTokenMinter {
  private readonly cache = new Map<string, MintedBotToken>();

  constructor(
    private readonly keyRing: KeyRing,
    private readonly environment: ConnectorGatewayEnvironment,
  ) {}

  mint(appId: string, serviceUrl: string): MintedBotToken {
    const key = this.keyRing.signingKey();
    const cacheKey = JSON.stringify([appId, serviceUrl, key.kid]);
    const now = Date.now();
    const cached = this.cache.get(cacheKey);
    if (cached && cached.expiresAt - REUSE_MARGIN_MS > now) return cached;
    const notBefore = Math.floor(now / 1000);
    const expires = notBefore + this.environment.CONNECTOR_TOKEN_LIFETIME_SECONDS;
    const token = jwt.sign(
      {
        iss: this.environment.CONNECTOR_BOT_TOKEN_ISSUER,
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
