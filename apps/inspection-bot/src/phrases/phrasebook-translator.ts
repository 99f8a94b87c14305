import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { type TranslatorPort } from './translator.port';

export type Phrasebook = ReadonlyMap<string, Readonly<Record<string, string>>>;

/** Reads `phrases: [ { en: "<template>", zh-Hans: "<translation>" }, … ]`. */
export function loadPhrasebook(path: string): Phrasebook {
  const document = parse(readFileSync(path, 'utf8')) as { phrases?: unknown };
  if (!document || !Array.isArray(document.phrases)) throw new Error(`${path}: expected a "phrases" list`);
  const phrasebook = new Map<string, Record<string, string>>();
  document.phrases.forEach((entry: unknown, index) => {
    if (!entry || typeof entry !== 'object') throw new Error(`${path}: phrases.${index} is not a mapping`);
    const languages = entry as Record<string, unknown>;
    if (typeof languages.en !== 'string') throw new Error(`${path}: phrases.${index}.en must be a string`);
    const translations: Record<string, string> = {};
    for (const [language, text] of Object.entries(languages)) {
      if (typeof text !== 'string') throw new Error(`${path}: phrases.${index}.${language} must be a string`);
      translations[language] = text;
    }
    phrasebook.set(languages.en, translations);
  });
  return phrasebook;
}

/**
 * The local TranslatorPort: serves the bot's own strings from the phrasebook (used until the gateway-backed
 * translator is wired). A text the phrasebook lacks comes back unchanged (English).
 */
export class PhrasebookTranslator implements TranslatorPort {
  constructor(private readonly phrasebook: Phrasebook) {}

  static fromFile(path: string): PhrasebookTranslator {
    return new PhrasebookTranslator(loadPhrasebook(path));
  }

  translate(texts: string[], options: { to: string; from?: string }): Promise<string[]> {
    return Promise.resolve(texts.map((text) => this.phrasebook.get(text)?.[options.to] ?? text));
  }
}
