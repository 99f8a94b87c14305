import { type PageLanguage, type PageText } from '../../src/chat-page/chat-page-text';

/** What the server put into the page (`#chat-settings`): its language and the chrome's words in it. */
export type { PageText };

export interface PageSettings {
  language: PageLanguage;
  text: PageText;
  /** An operator's choice to keep photos' camera metadata (GPS …); off: it is stripped before upload. */
  keepPhotoMetadata?: boolean;
}

export function readPageSettings(): PageSettings {
  const element = document.getElementById('chat-settings');
  return JSON.parse(element?.textContent ?? '{}') as PageSettings;
}

/** Fills `{name}`-style placeholders. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The locale Web Chat and the bot speak: `?locale=`, else the browser's, else the page's. */
export function pageLocale(settings: PageSettings): string {
  const asked = new URLSearchParams(window.location.search).get('locale');
  return asked || navigator.language || (settings.language === 'zh-CN' ? 'zh-CN' : 'en-US');
}
