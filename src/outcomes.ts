// The outcome vocabulary: what a check can end in. It depends on nothing of the suite (the
// Exchange type aside), so assertions, the run context and the requirement model all build on it.
import type { Exchange } from './evidence.js';

/** The target broke the rule. */
export class Violation extends Error {
  override name = 'Violation';
  constructor(
    message: string,
    readonly evidence: Exchange[] = [],
  ) {
    super(message);
  }
}

/** The check could not run here (read-only mode, write budget spent, store not provable). */
export class Skip extends Error {
  override name = 'Skip';
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
}

const PRECEDENCE: readonly OutcomeKind[] = ['passed', 'skipped', 'error', 'failed'];

/** The outcome a requirement takes from two of its checks (see OUTCOMES). */
export function worse(a: OutcomeKind, b: OutcomeKind): OutcomeKind {
  return PRECEDENCE.indexOf(a) >= PRECEDENCE.indexOf(b) ? a : b;
}
