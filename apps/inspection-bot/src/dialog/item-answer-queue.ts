/**
 * The answers to one item, taken one after another in this process: two taps on the same item at the same moment
 * (two phones, or two inspectors) are then read in turn, so the second finds the first one's record in
 * inspection-api and is told "already answered", as a tap after it would be, instead of both making a record.
 * Different items go on side by side. One process only: bot instances behind a load balancer do not share it.
 */
export class ItemAnswerQueue {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release = (): void => undefined;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => done);
    this.tails.set(key, tail);
    try {
      await previous;
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Items with answers being taken or waiting (for tests and metrics). */
  get size(): number {
    return this.tails.size;
  }
}
