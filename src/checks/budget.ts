// The write budget and its pieces, and the population the run context keeps: how many pets of each
// status checks rely on, the share properties may create, one property's allowance.
import type { PetStatus } from '../data/generated/schema-types.js';
import { Skip } from './outcomes.js';
import { msg, type Message } from './message.js';
import type { Settle } from '../wire/client-setup.js';

/**
 * Minimum pets of each status checks rely on. On a store that starts empty the total passes 100
 * (an unenforced maximum shows) while every status stays below 100, so filtered lists can be
 * proven complete; more than 20 of each lets a default limit ignored under a filter show too.
 */
export const POPULATION_PLAN: Readonly<Record<PetStatus, number>> = Object.freeze({
  available: 60,
  pending: 21,
  sold: 21,
});
export const POPULATION_TOTAL = 101;

/**
 * How PETSTORE_MAX_CREATES is shared so that nothing important starves. Properties and the
 * model-based test may hold at most this fraction of it between them (each its own weight of it,
 * see propertyCreates) and scale their runs down to what they get; the rest stays for the
 * population (ensurePopulation: about 100 pets on an empty store) and the example checks (about
 * 50). Every reservation is checked against the whole budget, so however large PETSTORE_RUNS is,
 * a run never creates more than PETSTORE_MAX_CREATES pets.
 */
export const PROPERTY_SHARE = 0.4;

/**
 * Where a request that may create a pet takes its creation (the client asks before sending it):
 * returns what to call when the request is over, saying whether it created (a 201, or no answer:
 * it may have), or throws Skip when there is none to take. It answers at once when it can, so a
 * request is sent in the same turn as before (the order of a run's requests stays its own).
 */
export interface WriteAccount {
  take(): Settle | Promise<Settle>;
}

/**
 * PETSTORE_MAX_CREATES for the whole run. A creation is reserved for good (a check's, up front)
 * or held by one request until it is over: one the server refuses is given back. Held ones count
 * as created until then, so the run never passes the limit whatever the server accepts.
 */
export class WriteBudget {
  private reserved = 0;

  constructor(
    private readonly max: number,
    private readonly readOnly: boolean,
  ) {}

  /** Pets still creatable (those held by requests in flight counted as created). */
  get left(): number {
    return this.readOnly ? 0 : this.max - this.reserved;
  }

  /** Takes n creations for good, or skips the check saying why. */
  reserve(n: number, what: Message): void {
    if (this.readOnly) throw new Skip(msg`read-only mode: ${what} needs to create ${n} pet(s)`);
    if (this.left < n)
      throw new Skip(
        msg`write budget spent: ${what} needs ${n} more pet(s), ${this.left} of PETSTORE_MAX_CREATES=${this.max} left`,
      );
    this.reserved += n;
  }

  /** Gives back creations reserved and not used. */
  release(n: number): void {
    this.reserved -= n;
  }

  /** One creation for one request, given back unless it created (for a request whose scope has none ahead). */
  readonly account: WriteAccount = {
    take: () => {
      this.reserve(1, msg`this check`);
      return (created) => {
        if (!created) this.release(1);
      };
    },
  };
}

/**
 * The creations of one scope (a check, the population, a property's run): those taken ahead for
 * it, then `fallback`'s one request at a time. One taken ahead and not used (not a 201) is taken
 * ahead again, or settled as its taker says.
 */
export class ScopeWrites implements WriteAccount {
  private readonly ahead: Settle[] = [];

  constructor(private readonly fallback: WriteAccount) {}

  /** n creations taken ahead (reserved from the budget for this scope, unless `settle` says otherwise). */
  add(n: number, settle?: Settle): void {
    const own: Settle = (created) => {
      if (!created) this.ahead.push(own);
    };
    for (let i = 0; i < n; i++) this.ahead.push(settle ?? own);
  }

  take(): Settle | Promise<Settle> {
    return this.ahead.pop() ?? this.fallback.take();
  }
}

/** Pets one property may create, reserved from the run's budget up front; what it leaves goes back when it closes. */
export class CreateAllowance {
  private used = 0;
  private closed = false;

  constructor(
    readonly size: number,
    private readonly release: (unused: number) => void,
  ) {}

  get left(): number {
    return this.closed ? 0 : this.size - this.used;
  }

  /** Takes one creation before a request that may create a pet; false when none is left. */
  take(): boolean {
    if (this.left < 1) return false;
    this.used++;
    return true;
  }

  /** The request created nothing, so its creation can be taken again. */
  giveBack(): void {
    if (!this.closed && this.used > 0) this.used--;
  }

  /** Hands what was not used back to the run's budget. */
  close(): void {
    if (this.closed) return;
    this.release(this.size - this.used);
    this.closed = true;
  }
}

export interface Population {
  /** Pets of each status seen in `?status=S&limit=100`, so at most 100. */
  byStatus: Record<PetStatus, number>;
  /** Pets seen in `?limit=100`. */
  total: number;
}
