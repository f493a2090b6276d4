// One cause, said once: a failing gateway, a target that stopped answering, a target turned
// failing (src/checks/target-watch.ts finds them), in words, with the requirements each explains.
import { GATEWAY_FAILING } from '../wire/requests.js';
import type { RequirementResult, Results, TargetLost, TargetPoisoned } from '../data/generated/report-types.js';
import { answeredOnTurn, listPathOf } from '../checks/target-watch.js';
import { plural } from './words.js';

/** Undecided requirements whose answers came from a failing gateway: the target failed during the run. */
function gatewayFailed(entries: readonly RequirementResult[]): RequirementResult[] {
  return entries.filter((e) => e.outcome === 'error' && (e.message ?? '').includes(GATEWAY_FAILING));
}

/** Said once for every requirement the failing gateway left undecided, instead of once per requirement. */
const TARGET_FAILED = `the target failed during the run (${GATEWAY_FAILING})`;

/** The target stopped answering (TargetLost), in words: said once, first, for all it left undecided. */
function targetLostSaid(t: TargetLost): string {
  const last = t.lastAnswered ? `; the last answer was to ${t.lastAnswered}` : '; it never answered';
  const shown = t.dropped.slice(0, 3).join(', ') + (t.dropped.length > 3 ? ` and ${t.dropped.length - 3} more` : '');
  const dropped = t.dropped.length ? `; it dropped ${shown} as it stopped` : '';
  return `the target stopped answering during the run (from ${t.from} on: ${t.why}, ${plural(t.requests, 'request')} without an answer${last}${dropped})`;
}

/**
 * The words of the one item for requirements one cause explains (SaidOnce), before their ids: how
 * many, what befell them, and the cause unless the verdict's reason already says it.
 */
export function saidOnce(o: SaidOnce, results: Results): string {
  return `${o.entries.length} ${o.what}${results.verdictReason.includes(o.said) ? '' : ` (${o.said})`}`;
}

/** The suite's own input broke the target (TargetPoisoned), in words: said first, before what followed from it. */
export function targetPoisonedSaid(p: TargetPoisoned): string {
  const every =
    (p.operation ?? 'listPets') === 'listPets'
      ? `every list answered ${p.status} from then on`
      : `every ${p.operation} answered ${p.status} from then on, where it had succeeded before`;
  if (p.valid && p.cause)
    return `the target turned failing on the request that broke ${p.by}: it accepted ${p.accepted} (201), and ${every}`;
  return p.valid
    ? `the target turned failing after it accepted ${p.accepted} (201, sent by ${p.by}): ${every}`
    : `the suite's own input broke the target: it accepted ${p.accepted} (201), a body the interface rejects (${p.by}), and ${every}`;
}

/** The requirements a lost target left undecided: those that could not decide for want of an answer. */
function lostWith(entries: readonly RequirementResult[], lost: TargetLost | null | undefined): RequirementResult[] {
  return lost ? entries.filter((e) => e.outcome === 'error' && (e.message ?? '').startsWith('could not decide')) : [];
}

/**
 * Requirements one cause explains, said once with their ids: what a failing gateway or a target
 * that stopped answering left undecided, or what failed on a poisoned target's failing answers.
 */
export interface SaidOnce {
  /** The cause, as the verdict's reason says it when it decides the verdict. */
  said: string;
  /** What befell the entries, in a few words: "left undecided as the target stopped answering". */
  what: string;
  entries: RequirementResult[];
  /** Curl commands to send again what the target fell on (TargetLost.reproduce). */
  reproduce?: readonly string[];
  /** Why the reports fold the ids: which requirements they are depends on timing. */
  folded?: string;
}

/**
 * What a failing gateway, else a target that stopped answering, left undecided among `entries`
 * (those that could not decide), said once; null when neither.
 */
export function leftUndecided(
  entries: readonly RequirementResult[],
  lost: TargetLost | null | undefined,
): SaidOnce | null {
  const gateway = gatewayFailed(entries);
  if (gateway.length) return { said: TARGET_FAILED, what: 'left undecided as the target failed', entries: gateway };
  const left = lostWith(entries, lost);
  if (!lost || !left.length) return null;
  return {
    said: targetLostSaid(lost),
    what: 'left undecided as the target stopped answering',
    entries: left,
    ...(lost.reproduce ? { reproduce: lost.reproduce } : {}),
  };
}

/** What befell the failures on a turned target's answers, in a few words. */
const ON_TURN = 'failed only on the answers of the target turned failing';

/**
 * The failures a target turned failing explains (TargetPoisoned), said once: those whose every
 * exchange kept as evidence is a 5xx answer of the operation that turned failing. Not the
 * requirement that failed on the request it turned on (TargetPoisoned.cause): that one is the
 * cause, and blocks them (then these are the requirements it blocked). Which requirements were
 * still sending when the target turned depends on timing, so the reports fold their ids
 * (`folded`) and name them in no verdict. Null when none.
 */
export function failedOnTurn(results: Results, failures: readonly RequirementResult[]): SaidOnce | null {
  const p = results.run.targetPoisoned;
  if (!p) return null;
  // Blocked ones keep no evidence: the runner blocked them for failing on those answers (blockedByTurn).
  const entries = p.cause
    ? results.requirements.filter((e) => e.blockedBy === p.by)
    : failures.filter(onTurnOf(p, results.target.baseUrl));
  if (!entries.length) return null;
  return {
    said: targetPoisonedSaid(p),
    what: p.cause ? `blocked by ${p.by}, on the answers of the target turned failing` : ON_TURN,
    entries,
    folded: 'which requirements were still sending when it turned depends on timing',
  };
}

/**
 * Whether a requirement's every exchange kept as evidence is a 5xx answer of the operation a target
 * turned failing on by itself (no TargetPoisoned.cause: with one, the runner blocked such failures).
 */
export function onTurnOf(p: TargetPoisoned, baseUrl: string): (e: RequirementResult) => boolean {
  const onTurn = answeredOnTurn(p, listPathOf(baseUrl));
  return (e) => (e.evidence?.length ?? 0) > 0 && (e.evidence ?? []).every(onTurn);
}

/** The headline's words for failures on a turned target's answers: "15 more failed only on its failing answers". */
export const onTurnSaid = (count: string) => `${count} failed only on its failing answers`;
