// The write budget's pieces and the population the run context keeps: how many pets of each
// status checks rely on, the share properties may create, one property's allowance.
import type { PetStatus } from '../data/generated/schema-types.js';

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
