import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

/** Where the page's front-end build (web/, built by Vite) lands: the bot's dist/web, from src/ and dist/ alike. */
export const CHAT_PAGE_BUILD = join(__dirname, '..', '..', 'dist', 'web');

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
};

export interface ChatPageAsset {
  file: string;
  contentType: string;
  /** Hashed file names (assets/) never change; everything else is revalidated. */
  immutable: boolean;
}

/**
 * The built page's files, listed once at start-up: index.html (the template) and the files it loads, served
 * by URL path (`assets/index-3f2a.js`, `sw.js`, `manifest.webmanifest`, `icons/icon-192.png`). A missing
 * build fails the start with the command that makes it.
 */
export class ChatPageAssets {
  readonly template: string;
  private readonly files = new Map<string, ChatPageAsset>();

  constructor(root = CHAT_PAGE_BUILD) {
    const index = join(root, 'index.html');
    if (!existsSync(index)) {
      throw new Error(`The chat page is not built (${index} is missing): run npm run build`);
    }
    this.template = readFileSync(index, 'utf8');
    const walk = (directory: string): void => {
      for (const name of readdirSync(directory)) {
        const path = join(directory, name);
        if (statSync(path).isDirectory()) walk(path);
        else {
          const url = relative(root, path).split(sep).join('/');
          const contentType = CONTENT_TYPES[extname(name)];
          if (contentType && url !== 'index.html') {
            this.files.set(url, { file: path, contentType, immutable: url.startsWith('assets/') });
          }
        }
      }
    };
    walk(root);
  }

  /** The file at a URL path (no leading slash), or undefined. */
  get(urlPath: string): ChatPageAsset | undefined {
    return this.files.get(urlPath);
  }
}
