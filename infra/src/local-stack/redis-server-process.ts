import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createConnection } from 'node:net';
import { residentSetBytes } from './process-memory';
import { waitUntil } from './ports';

export interface RedisServerOptions {
  port: number;
  /** Working directory: the append-only file and the log live here, so a restart finds the data again. */
  directory: string;
  /** The redis-server binary (Debian: /usr/bin/redis-server). */
  binary?: string;
}

/** Sends one inline command and resolves with the first reply line (`+PONG`, `-ERR …`). */
function redisCommand(port: number, command: string, timeoutMs = 2_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`redis ${command}: no answer in ${timeoutMs} ms`));
    }, timeoutMs);
    let answer = '';
    socket.setEncoding('utf8');
    socket.once('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (chunk: string) => {
      answer += chunk;
      if (answer.includes('\r\n')) {
        clearTimeout(timer);
        socket.end();
        resolve(answer.split('\r\n')[0] ?? '');
      }
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(answer.split('\r\n')[0] ?? '');
    });
  });
}

/**
 * A redis-server of its own, with persistence on (append-only file, fsync every second), that can be shut down and
 * started again on the same port and directory with its data intact.
 */
export class RedisServerProcess {
  private child: ChildProcess | undefined;
  readonly url: string;

  constructor(private readonly options: RedisServerOptions) {
    this.url = `redis://127.0.0.1:${options.port}`;
  }

  get port(): number {
    return this.options.port;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  residentSetBytes(): number | undefined {
    return residentSetBytes(this.child?.pid);
  }

  async start(): Promise<void> {
    const { port, directory, binary = 'redis-server' } = this.options;
    const child = spawn(
      binary,
      [
        '--bind',
        '127.0.0.1',
        '--port',
        String(port),
        '--dir',
        directory,
        '--appendonly',
        'yes',
        '--appendfsync',
        'everysec',
        '--save',
        '',
        '--daemonize',
        'no',
        '--logfile',
        'redis.log',
      ],
      { stdio: 'ignore' },
    );
    this.child = child;
    await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
        return (await redisCommand(port, 'PING').catch(() => '')) === '+PONG';
      },
      `redis-server on port ${port}`,
      15_000,
    );
  }

  /** SHUTDOWN (the append-only file is flushed first), then waits for the process to exit. */
  async shutdown(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    await redisCommand(this.options.port, 'SHUTDOWN').catch(() => child.kill('SIGTERM'));
    await exited;
    this.child = undefined;
  }

  /** A crash: SIGKILL, no shutdown (the append-only file keeps what the process had written to it). */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    this.child = undefined;
  }

  async restart(): Promise<void> {
    await this.shutdown();
    await this.start();
  }
}
