// The pool: a bound on the client's requests in flight, urgent ones first (see src/wire/client.ts).

/** A counting semaphore bounding requests in flight; urgent ones wait ahead of the others. */
export class Pool {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private urgentWaiting = 0;
  constructor(private readonly size: number) {}
  async run<T>(task: () => Promise<T>, urgent = false): Promise<T> {
    if (this.active >= this.size) {
      // Woken with the slot of the request that ended: it is handed over, never freed in between,
      // so a newcomer cannot take it too and exceed the bound.
      await new Promise<void>((resolve) => {
        if (urgent) this.waiting.splice(this.urgentWaiting++, 0, resolve);
        else this.waiting.push(resolve);
      });
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      // Urgent waiters are the first urgentWaiting of the queue.
      const next = this.waiting.shift();
      if (next) {
        if (this.urgentWaiting > 0) this.urgentWaiting--;
        next();
      } else {
        this.active--;
      }
    }
  }
}
