import { type Writable } from 'node:stream';

/** Transports corked in this tick, uncorked together once it ends. */
const corked = new Set<Writable>();
let flushScheduled = false;

function uncorkAll(): void {
  flushScheduled = false;
  const batch = [...corked];
  corked.clear();
  for (const transport of batch) transport.uncork();
}

/**
 * Holds the transport's writes until the end of the current tick (`process.nextTick`, before any I/O), so the frames
 * sent to one socket in one tick leave in one `writev` instead of one per frame. The bus hands the stream every
 * envelope of a Redis reply in one tick: after a pause of the event loop (GC, a burst of requests) each socket's
 * backlog then costs one system call, not one per frame.
 */
export function batchWritesOfThisTick(transport: Writable): void {
  if (corked.has(transport)) return;
  transport.cork();
  corked.add(transport);
  if (!flushScheduled) {
    flushScheduled = true;
    process.nextTick(uncorkAll);
  }
}
