// What a run's requirement entries add up to: the verdict and its one-line reason, the findings
// that kept it from a clean result, and the release gate of a run with a baseline.
import type {
  ConformanceLevel,
  RequirementResult,
  Results,
  TargetLost,
  TargetPoisoned,
  Tally,
  Verdict,
} from '../data/generated/report-types.js';
import type { Level } from '../checks/requirement.js';
import { addedAfter, type Exclusion } from '../data/requirement-sets.js';
import { inCauseOrder, shownFindings, type ShownFinding } from './causes.js';
import { failedOnTurn, leftUndecided, onTurnOf, onTurnSaid, targetPoisonedSaid, type SaidOnce } from './one-cause.js';
import { oneLine, plural } from './words.js';

/** How a verdict reads in a heading. */
export const VERDICT_TITLE: Readonly<Record<Verdict, string>> = {
  conformant: 'Conformant',
  nonconformant: 'Not conformant',
  inconclusive: 'Inconclusive',
  'not-tested': 'Not tested',
};

/** How a level reads in a heading; the terminal and the badge write it in capitals. */
export const LEVEL_TITLE: Readonly<Record<ConformanceLevel, string>> = {
  'fully-conformant': 'Fully conformant',
  ...VERDICT_TITLE,
};

/** Does a failure or error at this level decide the verdict (else it is a warning)? */
export function blocks(level: Level, strict: boolean): boolean {
  return level === 'MUST' || strict;
}

/** Ids in a verdict's one-line reason: all of a few, the first of many (every report lists them all below). */
const REASON_IDS = 8;
const ids = (entries: readonly RequirementResult[]) =>
  entries.length <= REASON_IDS
    ? entries.map((e) => e.id).join(', ')
    : `${entries
        .slice(0, REASON_IDS - 2)
        .map((e) => e.id)
        .join(', ')} and ${entries.length - (REASON_IDS - 2)} more`;

/**
 * The conformance level, from the verdict and the scored entries, judging nothing anew: a
 * conformant verdict is fully-conformant when no SHOULD requirement failed or was left undecided,
 * skips counting as they do for the verdict; any other verdict is its own level.
 */
export function levelOf(verdict: Verdict, scored: readonly RequirementResult[]): ConformanceLevel {
  if (verdict !== 'conformant') return verdict;
  return shouldsNotMet(scored).length === 0 ? 'fully-conformant' : 'conformant';
}

const shouldsNotMet = (scored: readonly RequirementResult[]) =>
  scored.filter((e) => e.level === 'SHOULD' && (e.outcome === 'failed' || e.outcome === 'error'));

/** The entries a report's verdict and counts are scored on: those of its requirement set. */
const scoredOf = (results: Results) => results.requirements.filter((e) => !e.notScored);

/** A report's level: as it records it (since format 1.11.0), else derived the same way from its entries. */
export function reportLevel(results: Results): ConformanceLevel {
  return results.level ?? levelOf(results.verdict, scoredOf(results));
}

/** What the level adds to the verdict, in a few words ('' when the level is the verdict). */
export function levelSaid(results: Results): string {
  const level = reportLevel(results);
  if (level !== 'fully-conformant' && level !== 'conformant') return '';
  const scored = scoredOf(results);
  const skipped = tally(scored, 'SHOULD').skipped;
  const skips = skipped > 0 ? `; ${plural(skipped, 'SHOULD requirement')} skipped` : '';
  if (level === 'fully-conformant') return `every SHOULD requirement checked was met too${skips}`;
  const notMet = shouldsNotMet(scored);
  return `${plural(notMet.length, 'SHOULD requirement')} not met: ${ids(notMet)}${skips}`;
}

/**
 * - conformant: no MUST requirement failed, and every MUST requirement that ran was decided.
 * - nonconformant: at least one MUST requirement failed (with PETSTORE_STRICT=1, a SHOULD one
 *   too). A proven violation stands even if the run was interrupted or other checks could not decide.
 * - inconclusive: nothing was proven violated, but the run cannot vouch for the target: a MUST
 *   requirement ended in `error`, the run was interrupted, the suite itself failed, or nothing ran.
 * - not-tested: no check ran because the target was not there to test (the probe's or the
 *   preflight's diagnosis): the user's setup or the infrastructure failed, not the service.
 * Skipped requirements leave the verdict alone; they are counted and listed with their reasons.
 */
export function verdictOf(
  entries: readonly RequirementResult[],
  run: {
    strict: boolean;
    interrupted: boolean;
    errors: readonly string[];
    diagnosis?: string | null | undefined;
    targetLost?: TargetLost | null | undefined;
    targetPoisoned?: TargetPoisoned | null | undefined;
    target: { baseUrl: string };
  },
): { verdict: Verdict; reason: string } {
  const { verdict, reason } = verdictAlone(entries, run);
  // A target the suite's own input broke: that first, before all that followed from it.
  const p = run.targetPoisoned;
  if (!p || verdict === 'conformant' || verdict === 'not-tested') return { verdict, reason };
  return { verdict, reason: `${targetPoisonedSaid(p)}; ${reason}` };
}

function verdictAlone(
  entries: readonly RequirementResult[],
  run: Parameters<typeof verdictOf>[1],
): { verdict: Verdict; reason: string } {
  if (run.diagnosis) return { verdict: 'not-tested', reason: run.diagnosis };
  const deciding = entries.filter((e) => blocks(e.level, run.strict));
  const levels = run.strict ? 'MUST or SHOULD' : 'MUST';
  // Named root cause first, like every list of findings.
  const by = run.targetPoisoned?.cause ? run.targetPoisoned.by : undefined;
  const failed = inCauseOrder(
    deciding.filter((e) => e.outcome === 'failed'),
    entries,
  ).sort((a, b) => Number(b.id === by) - Number(a.id === by));
  const undecided = deciding.filter((e) => e.outcome === 'error');
  const gone = leftUndecided(undecided, run.targetLost);
  if (failed.length > 0) {
    // Failures only on a turned target's answers are counted, not named: which they are is timing (failedOnTurn).
    const p = run.targetPoisoned;
    const onTurn = p && !p.cause ? onTurnOf(p, run.target.baseUrl) : () => false;
    const named = failed.filter((e) => !onTurn(e));
    const turned = failed.length - named.length;
    const reason = [
      named.length ? `${plural(named.length, `${levels} requirement`)} violated: ${ids(named)}` : '',
      turned ? onTurnSaid(named.length ? `${turned} more` : plural(turned, `${levels} requirement`)) : '',
      gone ? `${gone.said}, ${gone.entries.length} more could not be decided` : '',
    ];
    return { verdict: 'nonconformant', reason: reason.filter(Boolean).join('; ') };
  }
  if (gone) {
    return {
      verdict: 'inconclusive',
      reason: `${gone.said}: ${plural(undecided.length, `${levels} requirement`)} could not be decided`,
    };
  }
  if (undecided.length > 0) {
    return {
      verdict: 'inconclusive',
      reason: `${plural(undecided.length, `${levels} requirement`)} could not be decided: ${ids(undecided)}`,
    };
  }
  if (run.interrupted)
    return { verdict: 'inconclusive', reason: 'the run was interrupted before every check finished' };
  if (run.errors.length > 0)
    return { verdict: 'inconclusive', reason: `the suite itself failed: ${oneLine(run.errors[0], 160)}` };
  if (entries.length === 0) return { verdict: 'inconclusive', reason: 'no requirement was checked' };
  const must = tally(entries, 'MUST');
  const skipped = must.skipped > 0 ? `; ${plural(must.skipped, 'MUST requirement')} skipped` : '';
  return {
    verdict: 'conformant',
    reason: `every MUST requirement checked was met (${must.passed} of ${must.requirements})${skipped}`,
  };
}

/**
 * Requirements that kept the run from a clean result, worst first: violations, undecided,
 * warnings, each in root-cause order (inCauseOrder: a failure explaining others first, those
 * grouped under it right after); then those the baseline names: known deviations (apart from
 * the others, whatever their level) and fixed ones (passed: remove them from the baseline).
 */
export function findings(results: Results): {
  violations: RequirementResult[];
  undecided: RequirementResult[];
  warnings: RequirementResult[];
  known: RequirementResult[];
  fixed: RequirementResult[];
  notScored: RequirementResult[];
} {
  const strict = results.run.strict;
  const bad = (e: RequirementResult) => e.outcome === 'failed' || e.outcome === 'error';
  const open = results.requirements.filter((e) => e.baseline?.status !== 'known' && !e.notScored);
  // The requirement whose input broke the target (run.targetPoisoned) first: the rest followed from it.
  const by = results.run.targetPoisoned?.cause ? results.run.targetPoisoned.by : undefined;
  const ordered = (list: RequirementResult[]) =>
    inCauseOrder(list, results.requirements).sort((a, b) => Number(b.id === by) - Number(a.id === by));
  return {
    violations: ordered(open.filter((e) => e.outcome === 'failed' && blocks(e.level, strict))),
    undecided: ordered(open.filter((e) => e.outcome === 'error' && blocks(e.level, strict))),
    warnings: ordered(open.filter((e) => bad(e) && !blocks(e.level, strict))),
    known: results.requirements.filter((e) => e.baseline?.status === 'known'),
    fixed: results.requirements.filter((e) => e.baseline?.status === 'fixed'),
    notScored: results.requirements.filter((e) => e.notScored),
  };
}

/** One list of findings as a report shows it: all its entries, and each shown (shownFindings). */
export interface FindingList {
  entries: RequirementResult[];
  shown: ShownFinding[];
}

/**
 * The three lists every report shows, in this order, each shown after the ones before it:
 * violations, undecided, warnings; and apart from them, said once in every report with their ids,
 * not one line each: `gone`, what a failing gateway or a target that stopped answering left
 * undecided, and `turned`, the violations on a poisoned target's failing answers. A target
 * not tested has every requirement undecided for the one reason the headline gives: no undecided
 * list, and no undecided warning.
 */
export function findingLists(
  results: Results,
): Record<'violations' | 'undecided' | 'warnings', FindingList> & { gone: SaidOnce | null; turned: SaidOnce | null } {
  const { violations, undecided, warnings } = findings(results);
  const notTested = results.verdict === 'not-tested';
  const open = notTested ? [] : [...undecided, ...warnings.filter((e) => e.outcome === 'error')];
  const gone = leftUndecided(open, results.run.targetLost);
  const turned = failedOnTurn(results, [...violations, ...warnings.filter((e) => e.outcome === 'failed')]);
  const saidOnce = [...(gone?.entries ?? []), ...(turned?.entries ?? [])];
  const apart = (entries: readonly RequirementResult[]) => entries.filter((e) => !saidOnce.includes(e));
  const lists = [
    apart(violations),
    notTested ? [] : apart(undecided),
    apart(notTested ? warnings.filter((e) => e.outcome !== 'error') : warnings),
  ];
  // Named once, with the cause: not again under the finding they were grouped under or blocked by.
  const notOnce = (f: ShownFinding): ShownFinding => ({ ...f, also: apart(f.also), blocked: apart(f.blocked) });
  const [v, u, w] = lists.map((entries, i) => ({
    entries,
    shown: shownFindings(entries, lists.slice(0, i).flat(), results.requirements).map(notOnce),
  })) as [FindingList, FindingList, FindingList];
  return { violations: v, undecided: u, warnings: w, gone, turned };
}

/**
 * Marks what the set scored against leaves out: requirements added after it, and those it excludes
 * after an accepted challenge. Both ran and are reported; neither counts for the verdict or level.
 */
export function markUnscored(entries: RequirementResult[], setId: string, exclusions: readonly Exclusion[]): void {
  const later = addedAfter(setId);
  for (const e of entries) {
    const addedIn = later.get(e.id);
    if (addedIn !== undefined) e.notScored = { addedIn };
  }
  for (const x of exclusions) {
    const e = entries.find((r) => r.id === x.id);
    if (e) e.notScored = { ...e.notScored, excluded: { issue: x.issue, date: x.date } };
  }
}

/** Why a requirement is not scored: "excluded after challenge (URL)" or "added in X". */
export function unscoredWhy(e: RequirementResult): string {
  const x = e.notScored?.excluded;
  return x ? `excluded after challenge (${x.issue})` : `added in ${e.notScored?.addedIn ?? '?'}`;
}

/** What a requirement outside the set scored against, or excluded from it, did: "not scored (added in X): failed: …". */
export function notScoredSaid(e: RequirementResult): string {
  const did =
    e.outcome === 'failed' || e.outcome === 'error'
      ? `${e.outcome === 'failed' ? 'failed' : 'undecided'}: ${oneLine(e.message, 160)}`
      : e.outcome;
  return `${e.notScored?.excluded ? '' : 'not scored ('}${unscoredWhy(e)}${e.notScored?.excluded ? '' : ')'}: ${did}`;
}

/** The requirement set a report was scored against, said when it is not this release's ('' when it is). */
export function olderSetSaid(results: Results): string {
  const set = results.run.requirementSet;
  const excluded = results.requirements.filter((e) => e.notScored?.excluded).length;
  const exclusions = excluded ? `${excluded} excluded after an accepted challenge: run, reported, not scored` : '';
  if (!set || set.current) return exclusions;
  return [`scored against requirement set ${set.id}; requirements added since run but are not scored`, exclusions]
    .filter(Boolean)
    .join('; ');
}

/** The baseline's word on an entry: its reason, link and end date ('' when it has none). */
export function baselineSaid(e: RequirementResult): string {
  return e.baseline
    ? `${e.baseline.reason}${e.baseline.link ? ` (${e.baseline.link})` : ''}${e.baseline.until ? `, until ${e.baseline.until}` : ''}`
    : '';
}

/**
 * Entries of the baseline every requirement of which passed: stale, they would hide the next
 * regression of those requirements. An area or glob entry is stale only when all it covers passed.
 */
export function staleEntries(results: Results): string[] {
  const covered = new Map<string, boolean>();
  for (const e of results.requirements)
    if (e.baseline)
      covered.set(e.baseline.entry, (covered.get(e.baseline.entry) ?? true) && e.baseline.status === 'fixed');
  return [...covered].filter(([, allFixed]) => allFixed).map(([entry]) => entry);
}

/**
 * The release gate of a run with a baseline: it fails on a regression (a MUST requirement, with
 * --strict a SHOULD too, that failed or could not be decided and is not known), on a failure of
 * the suite itself, and with --strict or --baseline-strict on a stale entry; with --baseline-strict
 * on an expired one too. The verdict stays what the service deserves; the gate is what the exit code follows.
 */
export function gateOf(results: Results): {
  passed: boolean;
  regressions: RequirementResult[];
  reason: string;
} {
  const { violations, undecided } = findings(results);
  const regressions = [...violations, ...undecided];
  const strict = results.run.strict;
  const stale = staleEntries(results);
  const baselineStrict = results.run.baseline?.strict === true;
  const expired = baselineStrict ? (results.run.baseline?.expired ?? []) : [];
  const staleFails = stale.length > 0 && (strict || baselineStrict);
  const passed =
    regressions.length === 0 &&
    results.run.errors.length === 0 &&
    !results.run.interrupted &&
    !staleFails &&
    expired.length === 0;
  const parts: string[] = [];
  if (regressions.length)
    parts.push(`${plural(regressions.length, 'regression')} (not in the baseline): ${ids(regressions)}`);
  if (results.run.errors.length) parts.push('the suite itself failed');
  if (stale.length) {
    const fixed = `${plural(stale.length, 'baseline entry', 'baseline entries')} fixed`;
    const passing = `all ${stale.length === 1 ? 'it covers' : 'they cover'} passing${staleFails ? '' : ' (fails with --baseline-strict)'}`;
    parts.push(`${fixed}, ${passing}: remove ${stale.join(', ')} from the baseline`);
  }
  if (expired.length)
    parts.push(
      `${plural(expired.length, 'baseline entry', 'baseline entries')} expired (--baseline-strict): ${expired.map((x) => x.id).join(', ')}`,
    );
  const known = results.requirements.filter((e) => e.baseline?.status === 'known').length;
  if (passed && regressions.length === 0)
    parts.unshift(`no regression against the baseline (${plural(known, 'known deviation')})`);
  return { passed, regressions, reason: parts.join('; ') };
}

export function tally(entries: readonly RequirementResult[], level: Level): Tally {
  const t: Tally = { requirements: 0, passed: 0, skipped: 0, failed: 0, error: 0 };
  for (const e of entries) {
    if (e.level !== level) continue;
    t.requirements++;
    t[e.outcome]++;
  }
  return t;
}
