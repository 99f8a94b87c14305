import { type PageLanguage, type PageText } from './chat-page-text';

export interface ChatPageSettings {
  language: PageLanguage;
  text: PageText;
}

/** JSON inside a <script> element: nothing can close the element or open a comment. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * The chat page in one language: the built page (web/index.html, Vite's output) with its `{{lang}}`,
 * `{{settings}}` (the language and the chrome's words, as JSON for the page's script) and `{{<text key>}}`
 * placeholders filled. Its behaviour and look are the built script and style files (no inline script: the page
 * runs under a strict CSP).
 */
export function renderChatPage(template: string, { language, text }: ChatPageSettings): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => {
    if (key === 'lang') return language;
    if (key === 'settings') return scriptJson({ language, text });
    return key in text ? escapeHtml(text[key as keyof PageText]) : whole;
  });
}
