import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { residentSetBytes } from './process-memory';
import { waitUntil } from './ports';

export type AppName = 'inspection-api' | 'relay-gateway' | 'connector-gateway';

export interface AppProcessOptions {
  /** Which app (its `apps/<app>/dist/main.js` runs). */
  app: AppName;
  /** A label for logs and reports, e.g. `relay-gateway#2`. */
  name: string;
  port: number;
  /** The complete environment of the child (nothing is inherited). */
  environment: NodeJS.ProcessEnv;
  repositoryRoot: string;
  /** The child's stdout and stderr are appended here. */
  logFile: string;
}

/** One app as its own Node process, started from its build output like a container's CMD, killable with any signal. */
export class AppProcess {
  readonly url: string;
  private child: ChildProcess | undefined;
  private log: WriteStream | undefined;

  constructor(readonly options: AppProcessOptions) {
    this.url = `http://127.0.0.1:${options.port}`;
  }

  get name(): string {
    return this.options.name;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  residentSetBytes(): number | undefined {
    return this.running ? residentSetBytes(this.child?.pid) : undefined;
  }

  /** Starts the process and resolves once `/readyz` answers 200. */
  async start(readyTimeoutMs = 60_000): Promise<void> {
    const { app, repositoryRoot, environment, logFile } = this.options;
    this.log = createWriteStream(logFile, { flags: 'a' });
    const child = spawn(process.execPath, [join(repositoryRoot, 'apps', app, 'dist', 'main.js')], {
      cwd: repositoryRoot,
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(this.log, { end: false });
    child.stderr?.pipe(this.log, { end: false });
    this.child = child;
    await waitUntil(
      async () => {
        if (!this.running) throw new Error(`${this.name} exited during start-up (see ${logFile})`);
        const response = await fetch(`${this.url}/readyz`).catch(() => undefined);
        return response?.status === 200;
      },
      `${this.name} /readyz`,
      readyTimeoutMs,
      200,
    );
  }

  /** Sends the signal and waits for the exit (SIGTERM: a graceful shutdown; SIGKILL: a crash). */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000): Promise<void> {
    const child = this.child;
    if (child && this.running) {
      const exited = once(child, 'exit');
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    }
    await new Promise<void>((resolve) => (this.log ? this.log.end(resolve) : resolve()));
    this.log = undefined;
  }
}
