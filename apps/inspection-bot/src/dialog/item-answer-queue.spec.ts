import { ItemAnswerQueue } from './item-answer-queue';

/** A promise resolved from outside. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('the answers to one item, one after another', () => {
  it('starts the second answer to an item only after the first is done', async () => {
    const queue = new ItemAnswerQueue();
    const events: string[] = [];
    const first = deferred();
    const one = queue.run('3:7', async () => {
      events.push('first starts');
      await first.promise;
      events.push('first ends');
      return 1;
    });
    const two = queue.run('3:7', () => {
      events.push('second starts');
      return Promise.resolve(2);
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(events).toEqual(['first starts']);
    first.resolve();
    await expect(Promise.all([one, two])).resolves.toEqual([1, 2]);
    expect(events).toEqual(['first starts', 'first ends', 'second starts']);
    expect(queue.size).toBe(0);
  });

  it('takes answers to different items side by side', async () => {
    const queue = new ItemAnswerQueue();
    const blocked = deferred();
    const one = queue.run('3:7', () => blocked.promise.then(() => 'seal'));
    await expect(queue.run('3:8', () => Promise.resolve('gauge'))).resolves.toBe('gauge');
    blocked.resolve();
    await expect(one).resolves.toBe('seal');
  });

  it('goes on after an answer that failed', async () => {
    const queue = new ItemAnswerQueue();
    const failed = queue.run('3:7', () => Promise.reject(new Error('inspection-api unavailable')));
    const next = queue.run('3:7', () => Promise.resolve('recorded'));
    await expect(failed).rejects.toThrow('inspection-api unavailable');
    await expect(next).resolves.toBe('recorded');
    expect(queue.size).toBe(0);
  });
});
