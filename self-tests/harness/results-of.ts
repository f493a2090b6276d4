// The results tree of a harness run, built as the reporter builds a real run's (for the baseline
// and diff self-tests, which write it as conformance.json and read it back).
import type { Baseline } from '../../src/report/baseline.js';
import { buildResults, type CheckInput, type Results, type RunInput } from '../../src/report/results.js';
import type { OutcomeKind } from '../../src/checks/requirement.js';
import { catalogue } from '../../tests/catalogue.js';
import { rootsOf, type ShownFinding } from '../../src/report/causes.js';
import { findingLists } from '../../src/report/verdict.js';
import { failsItsTest } from '../../src/vitest/verdict.js';
import type { HarnessRun } from './harness.js';

/** Every check of a run, as the reporter gets them. */
function checkInputsOf(run: HarnessRun): CheckInput[] {
  return run.checks.map(({ id, name, kind, outcome }) => {
    const r = catalogue.find((x) => x.id === id);
    if (!r) throw new Error(`no requirement ${id}`);
    return { requirement: { id, level: r.level, section: r.section, statement: r.statement }, name, kind, ...outcome };
  });
}

/**
 * The MUST requirements a run fails, as the reports say (violated or undecided) and as vitest's
 * adapter would (a test failed per check): the two must be equal.
 */
export function failedBothWays(run: HarnessRun): { reports: string[]; vitest: string[] } {
  const reports = mustFailuresOf(run).map((e) => e.id);
  const tests = rootsOf(checkInputsOf(run)).checks.filter((c) => failsItsTest(c, false));
  return { reports: reports.sort(), vitest: [...new Set(tests.map((c) => c.requirement.id))].sort() };
}

/** The MUST requirements a run's reports call violated or undecided (after blame). */
export const mustFailuresOf = (run: HarnessRun) =>
  resultsOf(run).requirements.filter((e) => e.level === 'MUST' && (e.outcome === 'failed' || e.outcome === 'error'));

/** A run's facts as the self-tests fix them (its checks aside): the same for every tree they build. */
function runInput(extra: Partial<RunInput>): RunInput {
  const at = new Date('2026-06-01T00:00:00Z');
  return {
    suite: { name: 'petstore-conformance', version: '1.0.0', commit: null },
    target: { baseUrl: 'http://127.0.0.1/v1', embedded: true },
    startedAt: at,
    finishedAt: at,
    seed: 42,
    node: process.version,
    strict: false,
    readOnly: false,
    clock: null,
    only: [],
    skip: [],
    interrupted: false,
    errors: [],
    createdPets: [],
    runTag: null,
    ...extra,
  };
}

export function resultsOf(
  run: HarnessRun,
  {
    baseline = null,
    strict = false,
    requirementSet,
  }: { baseline?: Baseline | null; strict?: boolean; requirementSet?: string } = {},
): Results {
  return buildResults(
    checkInputsOf(run),
    runInput({
      strict,
      only: ['auth'],
      baseline,
      ...(requirementSet ? { requirementSet } : {}),
      targetLost: run.targetLost ?? null,
      targetPoisoned: run.targetPoisoned ?? null,
    }),
  );
}

/**
 * A run over the whole catalogue, without a server: every requirement passed but those given an
 * outcome (with its message, or "<outcome> on purpose"); the run's facts as `run` overrides them.
 */
export function catalogueResults(
  outcomes: Record<string, OutcomeKind | [OutcomeKind, string]> = {},
  run: Partial<RunInput> = {},
): Results {
  const checks = catalogue.map((r): CheckInput => {
    const given = outcomes[r.id] ?? 'passed';
    const [outcome, message] = typeof given === 'string' ? [given, `${given} on purpose`] : given;
    return {
      requirement: r,
      name: `${r.id} ${r.statement}`,
      kind: 'requirement',
      outcome,
      ...(outcome === 'passed' ? {} : { message }),
      evidence: [],
      durationMs: 1,
    };
  });
  return buildResults(checks, runInput(run));
}

/**
 * The story a run's reports tell of what kept it from conformance, as ids: each violation and
 * each undecided requirement shown, in order, with those grouped under it (`+`) and those it
 * blocked (`blocks`); then what one cause explains, said once (a target turned failing, without
 * which requirements failed on its answers; lost).
 * The same server must tell the same story whatever the seed and the scheduling.
 */
export function storyOf(run: HarnessRun): string[] {
  const lists = findingLists(resultsOf(run));
  const ids = (entries: readonly { id: string }[]) => entries.map((e) => e.id).join(' ');
  const item = ({ entry, also, blocked }: ShownFinding) =>
    [entry.id, also.length ? `+ ${ids(also)}` : '', blocked.length ? `blocks ${ids(blocked)}` : '']
      .filter(Boolean)
      .join(' ');
  return [
    ...lists.violations.shown.map(item),
    ...lists.undecided.shown.map(item),
    // Which requirements failed on a turned target's answers is timing (failedOnTurn): the turn alone.
    ...(lists.turned ? ['turned failing'] : []),
    ...(lists.gone ? [`${lists.gone.what}: ${ids(lists.gone.entries)}`] : []),
  ];
}
