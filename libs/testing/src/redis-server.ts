import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Socket } from 'node:net';

/**
 * A throwaway redis-server of a test's own on 127.0.0.1:`port`, without persistence, resolved once it accepts
 * connections. Suites that take Redis away under a running app kill it with {@link killRedisServer}.
 */
export function startRedisServer(port: number): Promise<ChildProcess> {
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    server.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve(server);
    });
    server.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
}

/** SIGKILLs a server from {@link startRedisServer} (a crash, not a shutdown) and waits for it to be gone. */
export async function killRedisServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGKILL');
  await exited;
}

/** A listener that takes connections on `port` and never answers: a Redis that hangs rather than refuses. */
export interface SilentListener {
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

export async function listenSilently(port: number): Promise<SilentListener> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    connections: () => sockets.size,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
