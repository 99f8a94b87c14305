import { type Logger } from 'pino';
import { ConfigurationError } from '../config/configuration-error';

export interface Stoppable {
  close(): Promise<void>;
}

/**
 * The body of every `main.ts`: starts the process's services, and on SIGTERM/SIGINT closes them
 * gracefully once (a second signal exits at once). A configuration error at start-up is printed as
 * it is, without a stack, and exits 1; any other start-up failure is logged and exits 1.
 */
export function runUntilSignalled(start: () => Promise<{ logger: Logger; running: Stoppable }>): void {
  let stopping = false;
  start()
    .then(({ logger, running }) => {
      const stop = (signal: NodeJS.Signals): void => {
        if (stopping) {
          logger.warn({ signal }, 'second signal: exiting now');
          process.exit(1);
        }
        stopping = true;
        logger.info({ signal }, 'signal received: stopping');
        running.close().then(
          () => process.exit(0),
          (error: unknown) => {
            logger.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    })
    .catch((error: unknown) => {
      if (error instanceof ConfigurationError) {
        process.stderr.write(`${error.message}\n`);
      } else {
        process.stderr.write(
          `start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        );
      }
      process.exit(1);
    });
}
