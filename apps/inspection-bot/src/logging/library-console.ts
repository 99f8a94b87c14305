import { AsyncLocalStorage } from 'node:async_hooks';
import { format } from 'node:util';
import { type Logger } from '@fieldops/platform';

type ConsoleMethod = 'error' | 'warn' | 'info' | 'log' | 'debug';
const LEVELS: Record<ConsoleMethod, 'error' | 'warn' | 'info' | 'debug'> = {
  error: 'error',
  warn: 'warn',
  info: 'info',
  log: 'info',
  debug: 'debug',
};

/** An error as `Class: message` (botbuilder's AuthenticationError keeps the name `Error`). */
function errorText(error: Error): string {
  const name = error.name === 'Error' ? error.constructor.name : error.name;
  return `${name}: ${error.message}`;
}

/** One line of what a library printed: an Error becomes `Class: message` (never its stack). */
export function consoleText(args: unknown[]): string {
  const parts = args.map((argument) => (argument instanceof Error ? errorText(argument) : argument));
  const text = format(...parts);
  const firstLine = text.split('\n', 1)[0] ?? '';
  return firstLine.length > 500 ? `${firstLine.slice(0, 500)}…` : firstLine;
}

/**
 * botbuilder writes what it refuses with `console.error` (an AuthenticationError with its multi-line stack, a
 * PEM key when a signature fails). Installed by the bot, the console's methods write one JSON line through the
 * platform logger instead; inside `collect()` the lines are gathered for the caller to log once, with its own
 * context (the messaging endpoint logs a refused activity as one line with the reason).
 */
export class LibraryConsole {
  private static installed: LibraryConsole | undefined;
  private readonly scope = new AsyncLocalStorage<string[]>();
  private readonly originals = new Map<ConsoleMethod, (...args: unknown[]) => void>();

  private constructor(private readonly logger: Logger) {}

  /** Routes the console of this process through `logger` (once per process; later calls reuse the first). */
  static install(logger: Logger): LibraryConsole {
    if (LibraryConsole.installed) return LibraryConsole.installed;
    const routed = new LibraryConsole(logger);
    for (const method of Object.keys(LEVELS) as ConsoleMethod[]) {
      routed.originals.set(method, console[method].bind(console));
      console[method] = (...args: unknown[]) => routed.write(method, args);
    }
    LibraryConsole.installed = routed;
    return routed;
  }

  /** Gives the console its own methods back. */
  uninstall(): void {
    if (LibraryConsole.installed !== this) return;
    for (const [method, original] of this.originals) {
      console[method] = original;
    }
    LibraryConsole.installed = undefined;
  }

  /** Runs `work`; what libraries print meanwhile is returned in `lines` instead of being logged. */
  async collect<T>(work: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
    const lines: string[] = [];
    const result = await this.scope.run(lines, work);
    return { result, lines };
  }

  private write(method: ConsoleMethod, args: unknown[]): void {
    const text = consoleText(args);
    const collecting = this.scope.getStore();
    if (collecting) {
      collecting.push(text);
      return;
    }
    this.logger[LEVELS[method]]({ source: 'console' }, text);
  }
}
