import { type Logger } from '@fieldops/platform';
import { TranslatorException } from '../translator-error';
import {
  type TranslationProvider,
  type TranslationRequest,
  type TranslationResponse,
  type TranslationResult,
} from './translation-provider';

export interface UpstreamTranslatorSettings {
  /** Base URL of a Translator v3 service (no trailing slash), e.g. https://api.translator.azure.cn */
  endpoint: string;
  key: string;
  region?: string;
  timeoutMs: number;
}

function isResultList(body: unknown, count: number): body is TranslationResult[] {
  return (
    Array.isArray(body) &&
    body.length === count &&
    body.every(
      (item: unknown) =>
        typeof item === 'object' &&
        item !== null &&
        Array.isArray((item as { translations?: unknown }).translations),
    )
  );
}

/**
 * Forwards translations to an upstream Translator v3 service with the gateway's own credentials (key and
 * region from the configuration). The upstream's 400 errors are passed on; anything else it refuses, a timeout
 * or an unreachable upstream is 503000.
 */
export class UpstreamTranslationProvider implements TranslationProvider {
  readonly name = 'upstream';

  constructor(
    private readonly settings: UpstreamTranslatorSettings,
    private readonly logger: Logger,
  ) {}

  async translate(request: TranslationRequest): Promise<TranslationResponse> {
    const query = new URLSearchParams({ 'api-version': '3.0' });
    for (const to of request.to) query.append('to', to);
    if (request.from !== undefined) query.set('from', request.from);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json; charset=UTF-8',
      'Ocp-Apim-Subscription-Key': this.settings.key,
      'X-ClientTraceId': request.requestId,
    };
    if (this.settings.region !== undefined) headers['Ocp-Apim-Subscription-Region'] = this.settings.region;
    let response: Response;
    let body: unknown;
    try {
      response = await fetch(`${this.settings.endpoint}/translate?${query.toString()}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(request.texts.map((text) => ({ Text: text }))),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      body = await response.json().catch(() => undefined);
    } catch (error) {
      this.logger.warn({ err: error, endpoint: this.settings.endpoint }, 'upstream translator unreachable');
      throw new TranslatorException(503000, 'The upstream translation service is unreachable.');
    }
    if (response.ok && isResultList(body, request.texts.length)) {
      return { results: body, system: response.headers.get('x-mt-system') ?? 'Upstream' };
    }
    const upstreamError = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    this.logger.warn(
      { status: response.status, upstreamError, endpoint: this.settings.endpoint },
      'upstream translator refused the request',
    );
    if (response.status === 400 && typeof upstreamError?.code === 'number') {
      const message = typeof upstreamError.message === 'string' ? upstreamError.message : undefined;
      throw new TranslatorException(upstreamError.code, message);
    }
    throw new TranslatorException(503000, `The upstream translation service answered ${response.status}.`);
  }
}
