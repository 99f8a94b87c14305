import { type AiCredentialProvider } from './ai-credential-provider';

/** Translator v3 accepts up to 1,000 elements per request. */
export const MAX_ELEMENTS_PER_REQUEST = 1000;

export interface TranslatorClientOptions {
  /** The Translator endpoint, e.g. `http://connector:8020` or `https://api.translator.azure.cn`. */
  endpoint: string;
  credentials: AiCredentialProvider;
  fetch?: typeof fetch;
}

/** A Translator error (`{"error":{"code":<number>,"message"}}`) or an unexpected answer. */
export class TranslatorError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'TranslatorError';
  }
}

interface TranslateResponseElement {
  translations?: Array<{ text?: unknown }>;
}

/** The Translator v3 translate operation, authenticated by an {@link AiCredentialProvider}. */
export class TranslatorClient {
  private readonly endpoint: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: TranslatorClientOptions) {
    this.endpoint = options.endpoint.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** One translated string per input, in order (requests of up to 1,000 elements). */
  async translate(texts: string[], options: { to: string; from?: string }): Promise<string[]> {
    const results: string[] = [];
    for (let start = 0; start < texts.length; start += MAX_ELEMENTS_PER_REQUEST) {
      results.push(
        ...(await this.translateBatch(texts.slice(start, start + MAX_ELEMENTS_PER_REQUEST), options)),
      );
    }
    return results;
  }

  private async translateBatch(texts: string[], options: { to: string; from?: string }): Promise<string[]> {
    const query = new URLSearchParams({ 'api-version': '3.0', to: options.to });
    if (options.from !== undefined) query.set('from', options.from);
    const response = await this.options.credentials.send((headers) =>
      this.fetch(`${this.endpoint}/translate?${query.toString()}`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json; charset=UTF-8' },
        body: JSON.stringify(texts.map((text) => ({ Text: text }))),
      }),
    );
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new TranslatorError(`translate answered ${response.status} without JSON`, response.status);
    }
    if (!response.ok) {
      const error = (body as { error?: { code?: unknown; message?: unknown } }).error;
      throw new TranslatorError(
        typeof error?.message === 'string' ? error.message : `translate answered ${response.status}`,
        response.status,
        typeof error?.code === 'number' ? error.code : undefined,
      );
    }
    if (!Array.isArray(body) || body.length !== texts.length)
      throw new TranslatorError('translate answered an unexpected body', response.status);
    return (body as TranslateResponseElement[]).map((element, index) => {
      const translated = element.translations?.[0]?.text;
      return typeof translated === 'string' ? translated : (texts[index] ?? '');
    });
  }
}
