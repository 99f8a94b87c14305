/**
 * The translation port: exactly the method of libs/ai-credentials' `TranslatorClient` (connector-gateway's
 * Translator v3 endpoint), so the gateway-backed client can replace the phrasebook without touching the bot.
 */
export interface TranslatorPort {
  translate(texts: string[], options: { to: string; from?: string }): Promise<string[]>;
}

/** Injection token of the TranslatorPort. */
export const TRANSLATOR = Symbol('TRANSLATOR');
