// The outcome vocabulary: what a check can end in. It depends on nothing of the suite (the
// Exchange and Message types aside), so assertions, the run context and the requirement model
// all build on it.
import type { Exchange } from '../wire/evidence.js';
import type { RequirementId } from '../data/generated/requirement-ids.js';
import { msg, type Message } from './message.js';

/**
 * Whose rule one failing case's evidence breaks, when the check met another requirement's rule on
 * the way to its own (a fixture create answered 500, an Error body without code, a list holding a
 * pet another check stored wrongly): the reports name that one first and this failure under it
 * (src/report/causes.ts). An empty one is the check's own rule.
 * - rules: requirements whose rule the evidence breaks, the most specific first; the first of them
 *   that failed in the run is the cause.
 * - sentBy: the requirements whose checks sent the requests the evidence answers (a rule judging
 *   the answers of the whole run): when exactly one of them failed too, the evidence is its.
 * - pets: ids of pets the evidence is about (invalid items of a list); the run context puts the
 *   requirement whose check created each before `rules` (see RunContext.creatorOf).
 * - mine: the check's own statement is false on this evidence too (an answer it expects "with an
 *   Error body" came without one): a violation of its own, grouped under the cause. Without it (or
 *   the check's own id among `rules`), a case naming a failed rule only blocks the check.
 */
export interface CaseCause {
  rules?: readonly RequirementId[];
  sentBy?: readonly string[];
  pets?: readonly string[];
  mine?: true;
}

/** The target broke the rule. `causes`: one per failing case, in the order of the message's cases. */
export class Violation extends Error {
  override name = 'Violation';
  declare readonly message: Message;
  constructor(
    message: Message,
    readonly evidence: Exchange[] = [],
    readonly causes: readonly CaseCause[] = [{}],
  ) {
    super(message);
  }
}

const own = (c: CaseCause) => !c.rules?.length && !c.sentBy?.length && !c.pets?.length;

/**
 * Runs `fn` (sync or async); a Violation it throws for the check's own rule is thrown again as
 * evidence against `cause` (rule ids, most specific first, or a whole CaseCause, or a function
 * making one only then: most answers break nothing), e.g. the 201 of a fixture create against
 * createPet.minimal. Cases that already name a rule keep it: the innermost helper knows best.
 */
export function because<T>(cause: readonly RequirementId[] | CaseCause | (() => CaseCause), fn: () => T): T {
  const retag = (err: unknown): never => {
    if (!(err instanceof Violation)) throw err;
    const named: CaseCause =
      typeof cause === 'function' ? cause() : Array.isArray(cause) ? { rules: cause } : (cause as CaseCause);
    throw new Violation(
      err.message,
      err.evidence,
      err.causes.map((c) => (own(c) ? { ...c, ...named } : c)),
    );
  };
  try {
    const out = fn();
    return (out instanceof Promise ? out.catch(retag) : out) as T;
  } catch (err) {
    return retag(err);
  }
}

/** The check could not run here (read-only mode, write budget spent, store not provable). */
export class Skip extends Error {
  override name = 'Skip';
  declare readonly message: Message;
  constructor(message: Message) {
    super(message);
  }
}

/**
 * Another requirement's fault left nothing to judge (a list that is no valid PetList, for a rule
 * about its length or filter): not a violation of the running check's own rule, which that
 * evidence neither proves nor clears. Reported like a skip, naming the rule that blocked it.
 */
export class Blocked extends Skip {
  override name = 'Blocked';
  constructor(
    readonly by: RequirementId,
    why: Message,
  ) {
    super(msg`blocked by ${by}: ${why}`);
  }
}

/**
 * Outcomes on the ordered scale, best first. When several checks speak for one requirement the
 * worse wins, except that a proven violation (failed) stands even where another check could not
 * decide (error).
 */
export const OUTCOMES = ['passed', 'skipped', 'failed', 'error'] as const;
export type OutcomeKind = (typeof OUTCOMES)[number];

export interface Outcome {
  outcome: OutcomeKind;
  /** Why it failed, errored or was skipped; one line first, details after. */
  message?: string;
  evidence: Exchange[];
  durationMs: number;
  /** A passed check that left cases out says which, e.g. "2 of 6 cases not run in read-only mode (…)". */
  note?: string;
  /** A failed check whose cases met other requirements' rules: one per failing case (see CaseCause). */
  causes?: CaseCause[];
  /** A skipped check that had nothing to judge because this requirement failed first (Blocked). */
  blockedBy?: RequirementId;
}

const PRECEDENCE: readonly OutcomeKind[] = ['passed', 'skipped', 'error', 'failed'];

/** The outcome a requirement takes from two of its checks (see OUTCOMES). */
export function worse(a: OutcomeKind, b: OutcomeKind): OutcomeKind {
  return PRECEDENCE.indexOf(a) >= PRECEDENCE.indexOf(b) ? a : b;
}
