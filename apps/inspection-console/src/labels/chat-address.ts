/**
 * The public address of the inspectors' chat page, which a label's QR code opens (`<chat>/d/<code>`): `chatUrl` in
 * the console's `config.json` (beside its index.html, written by the operator), else the address last typed on the
 * label sheet (this browser), else the chat page's default port on the console's host (`npm start`).
 */
const REMEMBERED = 'fieldops.console.chatUrl';

export interface ConsoleConfig {
  chatUrl?: string;
}

/** An http(s) URL ending with a slash, or undefined when the text is not one. */
export function normalChatUrl(text: string | undefined): string | undefined {
  if (!text) return undefined;
  try {
    const url = new URL(text.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.search = '';
    url.hash = '';
    if (!url.pathname.endsWith('/')) url.pathname += '/';
    return url.toString();
  } catch {
    return undefined;
  }
}

/** The configured chat address (config.json), or undefined when the console has none. */
export async function configuredChatUrl(): Promise<string | undefined> {
  try {
    const response = await fetch(new URL('config.json', document.baseURI), { cache: 'no-cache' });
    if (!response.ok) return undefined;
    return normalChatUrl(((await response.json()) as ConsoleConfig).chatUrl);
  } catch {
    return undefined;
  }
}

export function rememberedChatUrl(): string | undefined {
  return normalChatUrl(localStorage.getItem(REMEMBERED) ?? undefined);
}

export function rememberChatUrl(url: string): void {
  localStorage.setItem(REMEMBERED, url);
}

/** `npm start`'s chat page: port 3978 on the console's host. */
export function defaultChatUrl(): string {
  return `${window.location.protocol}//${window.location.hostname}:3978/`;
}

/** The URL a device's label encodes: the chat page's short path for the device. */
export function labelUrl(chatUrl: string, code: string): string {
  return new URL(`d/${encodeURIComponent(code)}`, chatUrl).toString();
}
