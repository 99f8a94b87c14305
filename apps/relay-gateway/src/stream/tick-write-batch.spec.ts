import { Writable } from 'node:stream';
import { batchWritesOfThisTick } from './tick-write-batch';

/** A transport that records each system-call-like write: one entry per `_write` or `_writev`. */
function recordingTransport(): { transport: Writable; writes: string[][] } {
  const writes: string[][] = [];
  const transport = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      writes.push(chunks.map(({ chunk }) => (chunk as Buffer).toString()));
      done();
    },
  });
  return { transport, writes };
}

const endOfTick = () => new Promise<void>((resolve) => process.nextTick(resolve));

describe('batchWritesOfThisTick', () => {
  it('sends the frames written to one transport in one tick as one write, once the tick ends', async () => {
    const { transport, writes } = recordingTransport();
    for (const frame of ['a', 'b', 'c']) {
      batchWritesOfThisTick(transport);
      transport.write(frame);
    }
    expect(writes).toEqual([]);
    await endOfTick();
    expect(writes).toEqual([['a', 'b', 'c']]);
  });

  it('keeps transports apart and starts a new batch in the next tick', async () => {
    const first = recordingTransport();
    const second = recordingTransport();
    batchWritesOfThisTick(first.transport);
    first.transport.write('1a');
    batchWritesOfThisTick(second.transport);
    second.transport.write('2a');
    batchWritesOfThisTick(first.transport);
    first.transport.write('1b');
    await endOfTick();
    batchWritesOfThisTick(first.transport);
    first.transport.write('1c');
    await endOfTick();
    expect(first.writes).toEqual([['1a', '1b'], ['1c']]);
    expect(second.writes).toEqual([['2a']]);
  });

  it('leaves a transport that was already corked by its writer corked by it (cork counts nest)', async () => {
    const { transport, writes } = recordingTransport();
    transport.cork();
    batchWritesOfThisTick(transport);
    transport.write('x');
    await endOfTick();
    expect(writes).toEqual([]);
    transport.uncork();
    expect(writes).toEqual([['x']]);
  });
});
