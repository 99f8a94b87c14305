import { type ActivityBusLogger } from '../src';

export interface LogRecord {
  level: 'warn' | 'error' | 'info';
  fields: object;
  message: string | undefined;
}

/** An {@link ActivityBusLogger} that keeps every call for assertions. */
export class RecordingLogger implements ActivityBusLogger {
  readonly records: LogRecord[] = [];

  warn(fields: object, message?: string): void {
    this.records.push({ level: 'warn', fields, message });
  }

  error(fields: object, message?: string): void {
    this.records.push({ level: 'error', fields, message });
  }

  info(fields: object, message?: string): void {
    this.records.push({ level: 'info', fields, message });
  }

  matching(level: LogRecord['level'], messagePart: string): LogRecord[] {
    return this.records.filter((record) => record.level === level && record.message?.includes(messagePart));
  }
}
