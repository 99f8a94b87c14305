import { processVariables } from '@fieldops/platform';
import { startAuthSidecar } from './auth-sidecar';

/** `npm run auth-sidecar -w @fieldops/connector-gateway`: one bot's Entra auth sidecar on loopback. */
startAuthSidecar(processVariables()).then(
  (sidecar) => {
    process.stdout.write(
      `${JSON.stringify({ level: 'info', msg: 'auth sidecar listening', url: sidecar.url })}\n`,
    );
    const stop = () => void sidecar.close().then(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  },
  (error: unknown) => {
    process.stderr.write(`auth-sidecar: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
