import { detectAll } from 'tinyld';
import { translatorLanguageOfDetected } from '../languages';

export interface DetectedLanguage {
  language: string;
  score: number;
}

/** Language detection for requests without `from` (tinyld); undefined when it has no answer. */
export function detectLanguage(text: string): DetectedLanguage | undefined {
  for (const candidate of detectAll(text)) {
    const language = translatorLanguageOfDetected(candidate.lang);
    if (language) return { language, score: Math.round(candidate.accuracy * 100) / 100 };
  }
  return undefined;
}
