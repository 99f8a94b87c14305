import { type LoggerService } from '@nestjs/common';
import { type Logger } from 'pino';

/** Nest's start-up chatter (one line per module and route) is debug-level detail, not operator news. */
const CHATTY_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

/** Routes NestJS's own log calls (bootstrap, route mapping, uncaught errors) into the service's pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...optional: unknown[]): void {
    const context = optional[optional.length - 1];
    this.write(
      typeof context === 'string' && CHATTY_CONTEXTS.has(context) ? 'debug' : 'info',
      message,
      optional,
    );
  }
  error(message: unknown, ...optional: unknown[]): void {
    this.write('error', message, optional);
  }
  warn(message: unknown, ...optional: unknown[]): void {
    this.write('warn', message, optional);
  }
  debug(message: unknown, ...optional: unknown[]): void {
    this.write('debug', message, optional);
  }
  verbose(message: unknown, ...optional: unknown[]): void {
    this.write('trace', message, optional);
  }
  fatal(message: unknown, ...optional: unknown[]): void {
    this.write('fatal', message, optional);
  }

  private write(
    level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal',
    message: unknown,
    optional: unknown[],
  ): void {
    const context =
      typeof optional[optional.length - 1] === 'string'
        ? (optional[optional.length - 1] as string)
        : undefined;
    const stack =
      level === 'error' && typeof optional[0] === 'string' && optional.length > 1 ? optional[0] : undefined;
    if (message instanceof Error) {
      this.logger[level]({ context, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ context, ...message });
    } else {
      this.logger[level]({ context, stack }, String(message));
    }
  }
}
