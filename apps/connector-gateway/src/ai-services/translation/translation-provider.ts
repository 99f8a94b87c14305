/** One input element's result, as the Translator v3 API returns it. */
export interface TranslationResult {
  detectedLanguage?: { language: string; score: number };
  translations: Array<{ text: string; to: string }>;
}

/** A validated translate request: canonical language codes, the texts in order. */
export interface TranslationRequest {
  texts: readonly string[];
  to: readonly string[];
  from?: string;
  /** The request id the response carries (forwarded upstream as X-ClientTraceId). */
  requestId: string;
}

export interface TranslationResponse {
  results: TranslationResult[];
  /** The provider's system name (the `X-mt-system` header). */
  system: string;
}

/** Where translations come from: the embedded phrasebook or an upstream Translator v3 service. */
export interface TranslationProvider {
  /** `phrasebook` or `upstream`: sent as `X-Translation-Provider` on every translate response. */
  readonly name: string;
  translate(request: TranslationRequest): Promise<TranslationResponse>;
}

export const TRANSLATION_PROVIDER = Symbol('TRANSLATION_PROVIDER');
