/** One element of a translate request body: `{"Text": "…"}` (property name case-insensitive). */
export interface TranslateRequestElement {
  Text: string;
}

/** One element of the translate response (Translator v3). */
export interface TranslateResponseElement {
  detectedLanguage?: { language: string; score: number };
  translations: Array<{ text: string; to: string }>;
}
