import { createConnection, createServer } from 'node:net';

export { freePort } from '@fieldops/platform';

/** Whether something accepts TCP connections on the loopback port. */
export function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Polls `probe` every `intervalMs` until it resolves true; rejects naming `what` after `timeoutMs`. */
export async function waitUntil(
  probe: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs: number,
  intervalMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Whether a loopback port can be listened on now. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The cluster bus of a Redis Cluster node listens on its port + 10000. */
export const CLUSTER_BUS_OFFSET = 10_000;

/**
 * `count` consecutive ports for Redis Cluster nodes whose bus ports (port + 10000) are free too, all below the
 * kernel's ephemeral range (32768 and up on Linux), so no outgoing connection takes a node's bus port while the node
 * is down and a restarted node always gets its ports back. `basePort` fixed: exactly those ports (an error when
 * taken); otherwise the first free block from 21000 on.
 */
export async function clusterPorts(count: number, basePort?: number): Promise<number[]> {
  const block = (base: number) => Array.from({ length: count }, (_, index) => base + index);
  const free = async (base: number) => {
    for (const port of block(base)) {
      if (!(await portFree(port)) || !(await portFree(port + CLUSTER_BUS_OFFSET))) return false;
    }
    return true;
  };
  if (basePort !== undefined) {
    if (!(await free(basePort)))
      throw new Error(
        `Redis Cluster ports ${basePort}-${basePort + count - 1} (or their bus ports + 10000) are taken`,
      );
    return block(basePort);
  }
  for (let base = 21_000; base + count - 1 + CLUSTER_BUS_OFFSET < 32_768; base += count) {
    if (await free(base)) return block(base);
  }
  throw new Error('no free block of Redis Cluster ports (and bus ports) below 32768');
}
