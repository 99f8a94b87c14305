import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { mergeTranslations, resolveBrowserLocale, type TranslationMessages } from 'react-admin';
import { consoleChinese, consoleEnglish } from './console-messages';
import { raChinese } from './ra-chinese';

export type ConsoleLocale = 'en' | 'zh-CN';

const messages: Record<ConsoleLocale, TranslationMessages> = {
  en: mergeTranslations(englishMessages, consoleEnglish) as TranslationMessages,
  // English underneath, so a key missing in Chinese shows in English rather than as its key.
  'zh-CN': mergeTranslations(englishMessages, raChinese, consoleChinese) as TranslationMessages,
};

/** `?locale=zh-CN` in the URL, then the browser's language: Chinese for any `zh*`, English otherwise. */
export function initialLocale(): ConsoleLocale {
  const requested = new URLSearchParams(window.location.search).get('locale') ?? resolveBrowserLocale('en');
  return requested.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

export const i18nProvider = polyglotI18nProvider(
  (locale) => messages[locale as ConsoleLocale] ?? messages.en,
  initialLocale(),
  [
    { locale: 'en', name: 'English' },
    { locale: 'zh-CN', name: '简体中文' },
  ],
  { allowMissing: true },
);
