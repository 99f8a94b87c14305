import { createConnection } from 'node:net';

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
