// One run of a property: its view of the property's write allowance (Creations) and its names.
import fc from 'fast-check';
import type { CreateAllowance, RunContext } from './context.js';
import { ScopeWrites } from './budget.js';

/** What a property's predicate can use besides its input. */
export interface Trial {
  /** A name unique in the run that carries the run tag (`<tag> <label><run>[.<n>]`), then `text`. */
  tagged(text?: string): string;
  /**
   * Before `n` requests that may create, sent at once: takes their creations from the allowance
   * ahead, or skips this input when it cannot (a batch is all or nothing). A single request needs
   * no call: the client takes its creation as it sends it and gives it back unless answered 201.
   * Where other runs hold creations that may come back (requests that create only on a broken
   * server), it waits for them.
   */
  take(n: number): Promise<void>;
  /** Creations this run can still count on: its even share of the allowance (0 for a property that creates nothing). */
  left(): number;
}

/**
 * The allowance as the runs of one property draw on it. Creations taken by a run still going may
 * come back (a request that creates only on a broken server is given back when it did not), so a
 * run that finds none left waits for them rather than skipping its input.
 */
export class Creations {
  /** Taken by runs still going, not given back. */
  private pending = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly allowance: CreateAllowance | undefined) {}

  get left(): number {
    return this.allowance?.left ?? 0;
  }

  /** 'now': taken; 'wait': others may give some back; 'never'. */
  tryTake(n: number): 'now' | 'wait' | 'never' {
    if (!this.allowance) return 'never';
    if (this.allowance.left >= n) {
      for (let i = 0; i < n; i++) this.allowance.take();
      this.pending += n;
      return 'now';
    }
    return this.pending > 0 ? 'wait' : 'never';
  }

  /** Resolves when creations may have come back. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** n creations given back, or kept by a run that ended (no longer pending). */
  settle(n: number, givenBack: boolean): void {
    if (n === 0) return;
    if (givenBack) for (let i = 0; i < n; i++) this.allowance?.giveBack();
    this.pending -= n;
    for (const wake of this.waiting.splice(0)) wake();
  }
}

/** A run's view of the allowance and its names; `end()` settles what it kept. */
export function trialFor(
  ctx: RunContext,
  creations: Creations,
  prefix: string,
  share: number,
): Trial & { end(): void; starved: number; writes: ScopeWrites } {
  let names = 0;
  let held = 0;
  let used = 0;
  const tryNow = (n: number): boolean => {
    const got = creations.tryTake(n);
    if (got === 'now') {
      held += n;
      used += n;
      return true;
    }
    if (got === 'never') {
      trial.starved++;
      fc.pre(false);
    }
    return false;
  };
  const takeNow = async (n: number) => {
    while (!tryNow(n)) await creations.changed();
  };
  const settle = (created: boolean) => {
    if (created || held < 1) return;
    held--;
    used--;
    creations.settle(1, true);
  };
  // Its requests that may create take from the allowance; a property without one (it creates
  // nothing) leaves them to the check's account.
  const writes = new ScopeWrites(
    creations.allowance
      ? // A resolved promise when there is one to take: the request goes a turn later, as it always has.
        { take: () => (tryNow(1) ? Promise.resolve(settle) : takeNow(1).then(() => settle)) }
      : ctx.writesHere(),
  );
  const trial = {
    starved: 0,
    writes,
    tagged: (text?: string) =>
      `${ctx.runTag} ${prefix}${++names === 1 ? '' : `.${names}`}${text === undefined ? '' : ` ${text}`}`,
    // Resolved at once when it can: a batch goes out a turn later, as it always has.
    take: (n: number) => {
      if (tryNow(n)) {
        writes.add(n, settle);
        return Promise.resolve();
      }
      return takeNow(n).then(() => writes.add(n, settle));
    },
    left: () => Math.max(0, Math.min(share - used, creations.left)),
    end: () => {
      creations.settle(held, false);
      held = 0;
    },
  };
  return trial;
}
