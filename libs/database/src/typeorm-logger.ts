import { AbstractLogger, type LogLevel, type LogMessage, type LoggerOptions } from 'typeorm';
import type { DatabaseLogger } from './database-logger';

/**
 * Routes TypeORM's own log output (queries, slow queries, schema and migration messages, which TypeORM
 * otherwise prints to the console) to a pino-compatible logger. Which messages are produced still follows
 * the `logging` option; migration and slow-query messages are always produced. Query parameters are never
 * logged, only their count (they may carry personal data or secrets).
 */
export class TypeOrmDatabaseLogger extends AbstractLogger {
  constructor(
    private readonly logger: DatabaseLogger,
    options?: LoggerOptions,
  ) {
    super(options);
  }

  protected writeLog(
    level: LogLevel,
    logMessage: LogMessage | string | number | (LogMessage | string | number)[],
  ): void {
    const messages = this.prepareLogMessages(logMessage, {
      highlightSql: false,
      appendParameterAsComment: false,
      addColonToPrefix: false,
    });
    // One entry per call: TypeORM splits e.g. a failed query into the SQL and the error.
    const [first] = messages;
    if (!first) return;
    const details: Record<string, unknown> = { component: 'typeorm', type: first.type ?? level };
    const parameters = messages.find((message) => message.parameters !== undefined)?.parameters;
    if (parameters !== undefined) {
      details.parameterCount = Array.isArray(parameters) ? parameters.length : Object.keys(parameters).length;
    }
    const text = messages
      .map((message) =>
        message.prefix ? `${message.prefix}: ${String(message.message)}` : String(message.message),
      )
      .join('; ');
    switch (level) {
      case 'query':
      case 'schema':
        this.logger.debug?.(details, text);
        break;
      case 'log':
      case 'info':
      case 'migration':
        this.logger.info(details, text);
        break;
      case 'warn':
        this.logger.warn(details, text);
        break;
      case 'error':
        this.logger.error(details, text);
        break;
    }
  }
}
