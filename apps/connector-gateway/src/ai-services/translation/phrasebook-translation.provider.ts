import { type Phrase } from '@fieldops/platform-config';
import { supportedLanguage } from '../languages';
import { detectLanguage } from './language-detector';
import {
  type TranslationProvider,
  type TranslationRequest,
  type TranslationResponse,
  type TranslationResult,
} from './translation-provider';

/** Lookup key of a text element: trimmed, lower-cased (case-insensitive on the source). */
const keyOf = (text: string): string => text.trim().toLowerCase();

/**
 * The embedded provider: translations from a phrase dictionary (whole text elements, trimmed, case-insensitive
 * on the source; a phrase spelt exactly as the text wins over one that differs only in case, so `Open` (a button)
 * and `open` (a status) can mean different words). Text it does not know comes back unchanged. Without `from`, the source language is the one
 * the text is a known phrase in, else what tinyld detects.
 */
export class PhrasebookTranslationProvider implements TranslationProvider {
  readonly name = 'phrasebook';
  /** language → source key → phrase. */
  private readonly index = new Map<string, Map<string, Phrase>>();
  /** language → trimmed source text, as spelt → phrase. */
  private readonly exact = new Map<string, Map<string, Phrase>>();

  constructor(phrases: readonly Phrase[]) {
    for (const phrase of phrases) {
      for (const [language, text] of Object.entries(phrase)) {
        const canonical = supportedLanguage(language) ?? language;
        let byText = this.index.get(canonical);
        if (!byText) {
          byText = new Map<string, Phrase>();
          this.index.set(canonical, byText);
        }
        if (!byText.has(keyOf(text))) byText.set(keyOf(text), phrase);
        let bySpelling = this.exact.get(canonical);
        if (!bySpelling) {
          bySpelling = new Map<string, Phrase>();
          this.exact.set(canonical, bySpelling);
        }
        if (!bySpelling.has(text.trim())) bySpelling.set(text.trim(), phrase);
      }
    }
  }

  translate(request: TranslationRequest): Promise<TranslationResponse> {
    const results = request.texts.map((text): TranslationResult => {
      let source = request.from;
      let detectedLanguage: TranslationResult['detectedLanguage'];
      if (source === undefined) {
        detectedLanguage = this.knownLanguageOf(text) ?? detectLanguage(text) ?? { language: 'en', score: 0 };
        source = detectedLanguage.language;
      }
      const phrase = this.exact.get(source)?.get(text.trim()) ?? this.index.get(source)?.get(keyOf(text));
      const translations = request.to.map((to) => ({ text: this.phraseIn(phrase, to) ?? text, to }));
      return detectedLanguage ? { detectedLanguage, translations } : { translations };
    });
    return Promise.resolve({ results, system: 'Phrasebook' });
  }

  /** The language a text is a known phrase in (score 1), preferring tinyld's opinion when several match. */
  private knownLanguageOf(text: string): { language: string; score: number } | undefined {
    const key = keyOf(text);
    const languages = [...this.index].filter(([, byText]) => byText.has(key)).map(([language]) => language);
    if (languages.length === 0) return undefined;
    const detected = detectLanguage(text)?.language;
    return { language: languages.find((language) => language === detected) ?? languages[0], score: 1 };
  }

  private phraseIn(phrase: Phrase | undefined, language: string): string | undefined {
    if (!phrase) return undefined;
    const entry = Object.entries(phrase).find(([code]) => code.toLowerCase() === language.toLowerCase());
    return entry?.[1];
  }
}
