import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repositoryRoot } from '@fieldops/platform';
import { passwordKeptIn } from './generated-password';

/** Where the embedded default keeps the demo supervisor's generated password. */
export const SUPERVISOR_PASSWORD_FILE = join(
  repositoryRoot(__dirname),
  '.data',
  'inspection-console',
  'supervisor-password',
);

/**
 * The supervisor console's built files (`apps/inspection-console/dist`, made by `npm run build`), for
 * inspection-api to serve at `/console/`: INSPECTION_CONSOLE_DIR when set, else the workspace's build when present.
 */
export function consoleDirectory(environment: NodeJS.ProcessEnv): string | undefined {
  if (environment.INSPECTION_CONSOLE_DIR) return environment.INSPECTION_CONSOLE_DIR;
  try {
    const built = join(dirname(require.resolve('@fieldops/inspection-console/package.json')), 'dist');
    return existsSync(join(built, 'index.html')) ? built : undefined;
  } catch {
    return undefined;
  }
}

/** inspection-api's environment with the console to serve (when built). */
export function withConsoleDirectory(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const directory = consoleDirectory(environment);
  return directory ? { ...environment, INSPECTION_CONSOLE_DIR: directory } : environment;
}

export interface SupervisorAccount {
  username: string;
  password: string;
}

/**
 * The demo supervisor the banner tells a new user to sign in with: CONSOLE_SUPERVISOR_USERNAME (default
 * `supervisor`) and CONSOLE_SUPERVISOR_PASSWORD, or a password generated once and kept in `.data/`.
 */
export function consoleSupervisorAccount(
  environment: NodeJS.ProcessEnv,
  file = SUPERVISOR_PASSWORD_FILE,
): SupervisorAccount {
  return {
    username: environment.CONSOLE_SUPERVISOR_USERNAME ?? 'supervisor',
    password: environment.CONSOLE_SUPERVISOR_PASSWORD ?? passwordKeptIn(file),
  };
}

/**
 * inspection-api's environment with the demo supervisor as its first user (INSPECTION_ADMIN_USERNAME/PASSWORD), so
 * the account exists when the API starts and it does not warn that nobody can sign in; first users the operator named
 * are left as they are (the supervisor is then made after start).
 */
export function withFirstUser(
  environment: NodeJS.ProcessEnv,
  supervisor: SupervisorAccount | undefined,
): NodeJS.ProcessEnv {
  if (
    supervisor === undefined ||
    environment.INSPECTION_ADMIN_USERNAME ||
    environment.INSPECTION_ADMIN_PASSWORD
  )
    return environment;
  return {
    ...environment,
    INSPECTION_ADMIN_USERNAME: supervisor.username,
    INSPECTION_ADMIN_PASSWORD: supervisor.password,
  };
}
