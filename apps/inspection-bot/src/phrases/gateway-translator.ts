import { AiCredentialProvider, TranslatorClient } from '@fieldops/ai-credentials';
import { type Logger } from '@fieldops/platform';
import { type TranslatorPort } from './translator.port';

export type TranslatorAuthentication = 'key' | 'key-and-region' | 'exchanged-token';

export interface GatewayTranslatorOptions {
  /** The Translator v3 endpoint (connector-gateway's base URL, or a real Translator). */
  endpoint: string;
  authentication: TranslatorAuthentication;
  /** One or two resource keys (the second is the fail-over). */
  keys: readonly string[];
  /** The resource's region (key-and-region). */
  region?: string;
  /** Where keys are exchanged for tokens (exchanged-token; default: the endpoint). */
  stsEndpoint?: string;
  logger: Logger;
}

/** The credential provider of one authentication mode. */
function credentialsFor(options: GatewayTranslatorOptions): AiCredentialProvider {
  switch (options.authentication) {
    case 'key':
      return new AiCredentialProvider({ mode: { kind: 'key', keys: options.keys } });
    case 'key-and-region':
      return new AiCredentialProvider({
        mode: { kind: 'key-and-region', keys: options.keys, region: options.region ?? 'global' },
      });
    case 'exchanged-token':
      return new AiCredentialProvider({
        mode: {
          kind: 'exchanged-token',
          keys: options.keys,
          stsEndpoint: options.stsEndpoint ?? options.endpoint,
        },
      });
  }
}

/**
 * The TranslatorPort backed by connector-gateway's Translator v3 endpoint through the shared AI-credentials client.
 * The bot only translates its own templates (a fixed set), so every translation is kept once obtained. When the
 * service fails the bot answers in English rather than not at all, and asks again next time.
 */
export class GatewayTranslator implements TranslatorPort {
  private readonly client: TranslatorClient;
  private readonly known = new Map<string, string>();

  constructor(private readonly options: GatewayTranslatorOptions) {
    this.client = new TranslatorClient({ endpoint: options.endpoint, credentials: credentialsFor(options) });
  }

  async translate(texts: string[], options: { to: string; from?: string }): Promise<string[]> {
    const keyOf = (text: string): string => `${options.from ?? ''}\u0000${options.to}\u0000${text}`;
    const missing = [...new Set(texts.filter((text) => !this.known.has(keyOf(text))))];
    if (missing.length > 0) {
      try {
        const translated = await this.client.translate(missing, options);
        missing.forEach((text, index) => this.known.set(keyOf(text), translated[index] ?? text));
      } catch (error) {
        this.options.logger.warn(
          { err: error, to: options.to, endpoint: this.options.endpoint },
          'translation failed: answering in the source language',
        );
        return texts;
      }
    }
    return texts.map((text) => this.known.get(keyOf(text)) ?? text);
  }
}
