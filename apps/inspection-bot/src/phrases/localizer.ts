import { fillPlaceholders, PHRASES, type PhraseKey, type PhraseParameters } from './phrase-catalogue';
import { type TranslatorPort } from './translator.port';

export type BotLanguage = 'en' | 'zh-Hans';

/** The reply language of an activity's locale: `zh*` → Simplified Chinese, anything else → English. */
export function languageOfLocale(locale: string | undefined, fallback: BotLanguage = 'en'): BotLanguage {
  if (!locale) return fallback;
  return locale.toLowerCase().startsWith('zh') ? 'zh-Hans' : 'en';
}

/** Turns catalogue keys into sentences of one language: translate the templates, then fill the placeholders. */
export class Localizer {
  constructor(private readonly translator: TranslatorPort) {}

  async phrase(language: BotLanguage, key: PhraseKey, parameters?: PhraseParameters): Promise<string> {
    const [text] = await this.phrases(language, [[key, parameters]]);
    return text ?? '';
  }

  async phrases(
    language: BotLanguage,
    requests: ReadonlyArray<readonly [PhraseKey, PhraseParameters?]>,
  ): Promise<string[]> {
    const templates: string[] = requests.map(([key]) => PHRASES[key]);
    const translated =
      language === 'en' || templates.length === 0
        ? templates
        : await this.translator.translate(templates, { to: language, from: 'en' });
    return requests.map(([, parameters], index) =>
      fillPlaceholders(translated[index] ?? templates[index] ?? '', parameters),
    );
  }
}
