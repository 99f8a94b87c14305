import { Inject, Injectable } from '@nestjs/common';
import { type JsonInputRules, LOGGER, type Logger, parseJsonInput } from '@fieldops/platform';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { AiAuthenticationError, AiAuthenticator, type AiCaller } from './ai-authenticator.service';
import { CharacterQuota } from './character-quota';
import { type TranslateResponseElement } from './dto/translate.dto';
import { LANGUAGE_TAG, supportedLanguage } from './languages';
import { TRANSLATION_PROVIDER, type TranslationProvider } from './translation/translation-provider';
import { TranslatorException } from './translator-error';
import { type RawBody } from './raw-body';

/** Translator v3 limits (service-limits.md). */
export const MAX_ELEMENTS = 1000;
export const MAX_CHARACTERS = 50_000;

/** A translate request as it arrived; nothing checked yet. */
export interface IncomingTranslateRequest {
  query: Record<string, unknown>;
  /** Lower-case header names. */
  header(name: string): string | undefined;
  hostname: string;
  contentType: string | undefined;
  /** Reads the body (called once credentials and Content-Type are accepted). */
  readBody(): Promise<RawBody>;
  requestId: string;
}

export interface TranslateOutcome {
  body: TranslateResponseElement[];
  caller: AiCaller;
  meteredCharacters: number;
  provider: string;
  system: string;
}

/** Query values as a list (`to` is repeatable, or comma-separated as the official SDK sends it). */
function listOf(value: unknown): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(listOf);
  return typeof value === 'string' ? value.split(',').map((item) => item.trim()) : [''];
}

/** The single value of a query parameter; a repeated one is invalid (undefined with `repeated`). */
function singleOf(value: unknown): { value?: string; invalid?: boolean } {
  if (value === undefined) return {};
  if (typeof value === 'string') return { value };
  return { invalid: true };
}

/** The `text` property of an element, whatever its case (`Text`, `text`, `TEXT`). */
function textOf(element: unknown): string | undefined {
  if (typeof element !== 'object' || element === null || Array.isArray(element)) return undefined;
  const entry = Object.entries(element).find(([name]) => name.toLowerCase() === 'text');
  return typeof entry?.[1] === 'string' ? entry[1] : undefined;
}

/**
 * `POST /translate?api-version=3.0`: checks in the Translator's order (api-version 400021, credentials 401000,
 * Content-Type 415000, JSON 400074, `to` 400036, `from` 400035, supported languages 400019, elements 400072,
 * element length 400050, request size 400077, quota 429000), then asks the configured provider.
 */
@Injectable()
export class TranslatorService {
  private readonly quota = new CharacterQuota();
  private readonly jsonRules: JsonInputRules;

  constructor(
    private readonly authenticator: AiAuthenticator,
    @Inject(TRANSLATION_PROVIDER) private readonly provider: TranslationProvider,
    @Inject(LOGGER) private readonly logger: Logger,
    environment: ConnectorGatewayEnvironment,
  ) {
    this.jsonRules = { maxDepth: environment.JSON_MAX_DEPTH, refuseNul: true };
  }

  get providerName(): string {
    return this.provider.name;
  }

  async translate(request: IncomingTranslateRequest): Promise<TranslateOutcome> {
    const { query } = request;
    const keyOf = (name: string): unknown =>
      Object.entries(query).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
    if (singleOf(keyOf('api-version')).value !== '3.0') throw new TranslatorException(400021);

    const caller = await this.authenticate(request, keyOf);

    const mediaType = request.contentType?.split(';')[0]?.trim().toLowerCase();
    if (mediaType !== 'application/json') throw new TranslatorException(415000);
    const body = await request.readBody();
    if (body.tooLarge) throw new TranslatorException(400077);
    let parsed: unknown;
    try {
      // The platform's JSON input rules: invalid UTF-8, nesting deeper than JSON_MAX_DEPTH and \u0000 are refused.
      parsed = parseJsonInput(body.bytes, this.jsonRules);
    } catch {
      throw new TranslatorException(400074);
    }

    const targets = listOf(keyOf('to'));
    if (targets.length === 0 || targets.some((to) => !LANGUAGE_TAG.test(to)))
      throw new TranslatorException(400036);
    const from = singleOf(keyOf('from'));
    if (from.invalid || (from.value !== undefined && !LANGUAGE_TAG.test(from.value)))
      throw new TranslatorException(400035);
    const to = targets.map((code) => supportedLanguage(code));
    const source = from.value === undefined ? undefined : supportedLanguage(from.value);
    if (to.some((code) => code === undefined) || (from.value !== undefined && source === undefined))
      throw new TranslatorException(400019);

    if (!Array.isArray(parsed))
      throw new TranslatorException(400000, 'The body must be a JSON array of objects with a Text property.');
    if (parsed.length > MAX_ELEMENTS) throw new TranslatorException(400072);
    const texts = parsed.map((element, index) => {
      const text = textOf(element);
      if (text === undefined)
        throw new TranslatorException(400000, `Element ${index} of the body has no Text string.`);
      return text;
    });
    if (texts.some((text) => text.length > MAX_CHARACTERS)) throw new TranslatorException(400050);
    const meteredCharacters = texts.reduce((sum, text) => sum + text.length, 0) * to.length;
    if (meteredCharacters > MAX_CHARACTERS) throw new TranslatorException(400077);

    const { retryAfterSeconds } = this.quota.take(
      caller.resource.name,
      caller.resource.charactersPerHour,
      meteredCharacters,
    );
    if (retryAfterSeconds !== undefined)
      throw new TranslatorException(429000, undefined, { 'Retry-After': String(retryAfterSeconds) });

    const response = await this.provider.translate({
      texts,
      to: to as string[],
      ...(source !== undefined && { from: source }),
      requestId: request.requestId,
    });
    this.logger.info(
      {
        resource: caller.resource.name,
        mode: caller.mode,
        principal: caller.principal,
        elements: texts.length,
        meteredCharacters,
        provider: this.provider.name,
      },
      'translated',
    );
    return {
      body: response.results,
      caller,
      meteredCharacters,
      provider: this.provider.name,
      system: response.system,
    };
  }

  private async authenticate(
    request: IncomingTranslateRequest,
    keyOf: (name: string) => unknown,
  ): Promise<AiCaller> {
    // An empty header counts as absent (a client that has no key sends none).
    const queryKey = singleOf(keyOf('Subscription-Key')).value || undefined;
    const headerKey = request.header('ocp-apim-subscription-key') || undefined;
    const key = headerKey ?? queryKey;
    const region =
      (headerKey !== undefined ? request.header('ocp-apim-subscription-region') : undefined) ??
      singleOf(keyOf('Subscription-Region')).value ??
      request.header('ocp-apim-subscription-region');
    const authorization = request.header('authorization');
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    try {
      return await this.authenticator.authenticate({
        ...(key !== undefined && { key }),
        ...(region !== undefined && { region }),
        ...(bearer !== undefined && { bearer }),
        hostname: request.hostname,
      });
    } catch (error) {
      if (!(error instanceof AiAuthenticationError)) throw error;
      this.authenticator.logRefusal(error, 'translate');
      throw new TranslatorException(401000);
    }
  }
}
