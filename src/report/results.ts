// The one results tree of a run, built from its checks: every report file and the terminal
// summary render from it. One entry per requirement; its outcome comes from its checks (see
// requirementOutcome); the verdict follows from the entries (src/report/verdict.ts).
import { addRetries, noRetries, type Retries } from '../wire/requests.js';
import type { Exchange } from '../wire/evidence.js';
import { areaOf, worse, type CaseCause, type CheckKind, type Level, type OutcomeKind } from '../checks/requirement.js';
import { matches } from '../checks/select.js';
import { byRequirement, rootsOf } from './causes.js';
import { levelOf, markUnscored, tally, verdictOf } from './verdict.js';
import type { BaselineEntry } from '../data/generated/schema-types.js';
import { CURRENT_REQUIREMENT_SET } from '../data/generated/requirement-ids.js';
import { exclusionsOf, type Exclusion } from '../data/requirement-sets.js';
import type {
  DeploymentFinding,
  PropertyCase,
  RequirementResult,
  Results,
  RunRetries,
  RunServer,
  SuiteScore,
  TargetLost,
  TargetPoisoned,
} from '../data/generated/report-types.js';

// The tree's types are generated from schemas/conformance-report.schema.json (npm run generate);
// the schema's descriptions say what each field means and since which format version.
export type {
  BaselineEntry,
  DeploymentFinding,
  RequirementResult,
  Results,
  RunRetries,
  RunServer,
  SuiteScore,
  TargetLost,
  TargetPoisoned,
};
export type {
  BaselineMark,
  CheckResult,
  ConformanceLevel,
  RunBaseline,
  Tally,
  Verdict,
} from '../data/generated/report-types.js';

/** A loaded baseline, as a report knows it (src/report/baseline.ts loads one): what the run records and matches requirements against. */
export interface Baseline {
  path: string;
  sha256: string;
  kind: 'known-deviations' | 'report';
  /** The entries in force. */
  entries: BaselineEntry[];
  /** Entries whose `until` has passed: they count as not in the baseline. */
  expired: BaselineEntry[];
  /** --baseline-strict: a stale or expired entry fails the gate. */
  strict?: boolean;
}

/** Identifies the format of conformance.json; see schemas/conformance-report.schema.json. */
export const REPORT_FORMAT = 'petstore-conformance/report';
/** Semantic version of the format: a new optional field is a minor bump, anything else major. */
export const REPORT_FORMAT_VERSION = '1.16.0';
export const INTERFACE = { name: 'Pet Store Service Interface', version: '1.0.0' } as const;
export const LEVELS: readonly Level[] = ['MUST', 'SHOULD'];

/** One finished (or unfinished) check, as src/run/runner.ts or the harness reports it. */
export interface CheckInput {
  requirement: { id: string; level: Level; section: string; statement: string };
  /** Test name; starts with the requirement id. */
  name: string;
  kind: CheckKind;
  outcome: OutcomeKind;
  message?: string;
  /** A passed check that left cases out: which (see Outcome.note). */
  note?: string;
  evidence: readonly Exchange[];
  durationMs: number;
  /** What its requests took beyond one send (retries after 429/503, resends), when anything. */
  retries?: Retries;
  /** A failed check whose cases met other requirements' rules (see Outcome.causes). */
  causes?: readonly CaseCause[];
  /** A skipped check blocked by this requirement's failure (see Outcome.blockedBy, rootsOf). */
  blockedBy?: string;
  /** A failed property check's failing cases (see CheckOutcome.cases). */
  cases?: readonly PropertyCase[];
}

export interface RunInput {
  suite: { name: string; version: string; commit: string | null; score?: SuiteScore };
  target: { baseUrl: string; embedded: boolean; label?: string };
  startedAt: Date;
  finishedAt: Date;
  seed: number | null;
  node: string;
  strict: boolean;
  readOnly: boolean;
  /** PETSTORE_NOW, when the suite's clock was set. */
  clock: string | null;
  only: readonly string[];
  skip: readonly string[];
  interrupted: boolean;
  /** Failures of the suite itself outside any check (unhandled errors, a file that did not load). */
  errors: readonly string[];
  createdPets: readonly string[];
  runTag: string | null;
  /** HTTP requests the checks sent (each retry counts), when the run got that far. */
  requests?: number | null;
  /** Why no check ran (the CLI's probe or preflight): makes the verdict not-tested. */
  diagnosis?: string | null;
  /** The run's retries and pacing, when the run got to its checks. */
  retries?: RunRetries | null;
  /** --baseline: the known deviations, when given. */
  baseline?: Baseline | null;
  /** --requirement-set: the set the verdict is scored against (default: this release's). */
  requirementSet?: string;
  /** The set's exclusions after accepted challenges (default: those it carries); tests inject their own. */
  exclusions?: readonly Exclusion[];
  /** --start: the command that started the server under test, and how it ended if during the run. */
  server?: RunServer | null;
  /** The target stopped answering during the run. */
  targetLost?: TargetLost | null;
  /** The suite's own input broke the target. */
  targetPoisoned?: TargetPoisoned | null;
  /** What a gateway in front answered itself. */
  deployment?: readonly DeploymentFinding[];
  /** What the run covered: the catalogued inputs sent, the statuses each operation answered. */
  coverage?: RunCoverage;
  /** --soak: the rounds of properties after the run, and what they found. */
  soak?: RunSoak;
  /** The protocol, the connections opened, the latency per operation. */
  network?: RunNetwork;
}

export type RunCoverage = NonNullable<Results['run']['coverage']>;
export type RunSoak = NonNullable<Results['run']['soak']>;
export type RunNetwork = NonNullable<Results['run']['network']>;

export const MAX_EVIDENCE = 10;
export const LEDGER_FILE = 'created-pets.json';

/**
 * A requirement's outcome from its checks (its own and any properties), a three-valued "and": a
 * violation proven by any check stands (failed), whatever the others say, even if one could not
 * finish (a run interrupted, a request timed out); else a check that could not decide makes it
 * undecided (error); else a skipped check makes it skipped; else it passed.
 */
export function requirementOutcome(outcomes: readonly OutcomeKind[]): OutcomeKind {
  return outcomes.reduce<OutcomeKind>(worse, 'passed');
}

/**
 * A requirement blocked by `root`, from its checks as rootsOf gave them (the blocked ones skipped)
 * and as they ended: passed, with what blocked it as its note, when its other checks passed (its
 * statement held wherever it was judged); else skipped, or undecided.
 */
function blockedResult(checks: readonly CheckInput[], ended: readonly CheckInput[], root: string): RequirementResult {
  const e = { ...requirementResult(checks), blockedBy: root };
  const judged = checks.filter((c, i) => c === ended[i]);
  if (
    e.outcome !== 'skipped' ||
    !judged.some((c) => c.outcome === 'passed') ||
    judged.some((c) => c.outcome === 'skipped')
  )
    return e;
  const { skipReason, ...rest } = e;
  return { ...rest, outcome: 'passed', note: [e.note, skipReason].filter(Boolean).join('\n') };
}

function requirementResult(checks: readonly CheckInput[]): RequirementResult {
  const first = checks[0] as CheckInput;
  const { id, level, section, statement } = first.requirement;
  const outcome = requirementOutcome(checks.map((c) => c.outcome));
  const worst = checks.filter((c) => c.outcome === outcome);
  const entry: RequirementResult = {
    id,
    level,
    section,
    statement,
    area: areaOf(id),
    outcome,
    durationMs: checks.reduce((sum, c) => sum + c.durationMs, 0),
    checks: checks.map((c) => ({
      name: c.name,
      kind: c.kind,
      outcome: c.outcome,
      durationMs: c.durationMs,
      ...(c.message ? { message: c.message } : {}),
      ...(c.note ? { note: c.note } : {}),
      ...(c.cases ? { cases: [...c.cases] } : {}),
    })),
  };
  const retried = checks.flatMap((c) => (c.retries ? [c.retries] : []));
  if (retried.length > 0) entry.retries = retried.reduce(addRetries, noRetries());
  const notes = checks.flatMap((c) => (c.note ? [c.note] : []));
  if (outcome === 'passed' && notes.length > 0) entry.note = notes.join('\n');
  if (outcome === 'skipped') entry.skipReason = worst.map((c) => c.message ?? 'skipped').join('\n');
  // Blocked, when every check that skipped was, by one requirement.
  const by = new Set(worst.map((c) => c.blockedBy));
  const [blocker] = by;
  if (outcome === 'skipped' && by.size === 1 && blocker !== undefined) entry.blockedBy = blocker;
  if (outcome === 'failed' || outcome === 'error') {
    entry.message = worst.map((c) => c.message ?? outcome).join('\n');
    const evidence = worst.flatMap((c) => c.evidence);
    if (evidence.length > 0) {
      entry.evidence = evidence.slice(0, MAX_EVIDENCE);
      if (evidence.length > MAX_EVIDENCE) entry.evidenceOmitted = evidence.length - MAX_EVIDENCE;
      entry.reproduce = (evidence[0] as Exchange).reproduce;
    }
  }
  return entry;
}

/**
 * The command that replays a run: same seed, same target; the key comes from the environment.
 * npx, not an npm script: it works from a clone and from a project that installed the suite.
 */
export function replayCommand(seed: number, target: RunInput['target']): string {
  const where = target.embedded ? '' : `PETSTORE_BASE_URL='${target.baseUrl.replace(/'/g, `'\\''`)}' `;
  // `--seed=-5`: a value starting with - must be attached to its flag.
  return `${where}npx petstore-conformance --seed${seed < 0 ? '=' : ' '}${seed}`;
}

/** The name of an implementation when --label gave none: the target's host, or "reference server". */
export function defaultLabel(target: { baseUrl: string; embedded: boolean }): string {
  if (target.embedded) return 'reference server';
  try {
    return new URL(target.baseUrl).host;
  } catch {
    return target.baseUrl;
  }
}

/** The label a run was given with --label, if any: the run reports head their target with it. */
export function givenLabel(target: Results['target']): string | undefined {
  return target.label !== undefined && target.label !== defaultLabel(target) ? target.label : undefined;
}

/** Builds the tree from the checks in catalogue order; checks of one requirement are merged. */
export function buildResults(checks: readonly CheckInput[], run: RunInput): Results {
  const roots = rootsOf(checks);
  const byId = byRequirement(roots.checks);
  const before = byRequirement(checks);
  const requirements = [...byId].map(([id, list]) => {
    const link = roots.links.get(id);
    if (!link) return requirementResult(list);
    if (!link.blocked) return { ...requirementResult(list), causedBy: link.root };
    return blockedResult(list, before.get(id) ?? [], link.root);
  });
  // A run that never reached the target has nothing to compare with the baseline.
  if (run.baseline && !run.diagnosis) for (const e of requirements) markBaseline(e, run.baseline);
  const requirementSet = run.requirementSet ?? CURRENT_REQUIREMENT_SET;
  markUnscored(requirements, requirementSet, run.exclusions ?? exclusionsOf(requirementSet));
  const scored = requirements.filter((e) => !e.notScored);
  const { verdict, reason } = verdictOf(scored, run);
  return {
    format: REPORT_FORMAT,
    formatVersion: REPORT_FORMAT_VERSION,
    suite: { ...run.suite },
    interface: { ...INTERFACE },
    target: { ...run.target, label: run.target.label ?? defaultLabel(run.target) },
    run: {
      startedAt: run.startedAt.toISOString(),
      finishedAt: run.finishedAt.toISOString(),
      durationMs: Math.max(0, run.finishedAt.getTime() - run.startedAt.getTime()),
      seed: run.seed,
      replay: run.seed === null ? null : replayCommand(run.seed, run.target),
      node: run.node,
      strict: run.strict,
      readOnly: run.readOnly,
      clock: run.clock,
      selection: { only: [...run.only], skip: [...run.skip] },
      interrupted: run.interrupted,
      errors: [...run.errors],
      requests: run.requests ?? null,
      diagnosis: run.diagnosis ?? null,
      retries: run.retries ?? null,
      ...(run.targetLost ? { targetLost: run.targetLost } : {}),
      ...(run.targetPoisoned ? { targetPoisoned: run.targetPoisoned } : {}),
      ...(run.deployment?.length ? { deployment: [...run.deployment] } : {}),
      ...(run.coverage ? { coverage: run.coverage } : {}),
      ...(run.soak ? { soak: run.soak } : {}),
      ...(run.network ? { network: run.network } : {}),
      ...(run.server ? { server: run.server } : {}),
      requirementSet: { id: requirementSet, current: requirementSet === CURRENT_REQUIREMENT_SET },
      ...(run.baseline
        ? {
            baseline: {
              path: run.baseline.path,
              sha256: run.baseline.sha256,
              kind: run.baseline.kind,
              entries: run.baseline.entries.length,
              expired: run.baseline.expired,
              ...(run.baseline.strict ? { strict: true } : {}),
            },
          }
        : {}),
    },
    verdict,
    verdictReason: reason,
    level: levelOf(verdict, scored),
    counts: { MUST: tally(scored, 'MUST'), SHOULD: tally(scored, 'SHOULD') },
    createdPets: { count: run.createdPets.length, runTag: run.runTag, ledger: LEDGER_FILE },
    requirements,
  };
}

/** The entry in force that covers a requirement id: an exact id wins over an area or glob. */
export function baselineEntryFor(baseline: Pick<Baseline, 'entries'>, id: string): BaselineEntry | undefined {
  return baseline.entries.find((e) => e.id === id) ?? baseline.entries.find((e) => matches(id, e.id));
}

function markBaseline(e: RequirementResult, baseline: Baseline): void {
  const entry = baselineEntryFor(baseline, e.id);
  if (!entry || e.outcome === 'skipped') return;
  e.baseline = {
    status: e.outcome === 'passed' ? 'fixed' : 'known',
    entry: entry.id,
    reason: entry.reason,
    ...(entry.link ? { link: entry.link } : {}),
    ...(entry.until ? { until: entry.until } : {}),
  };
}

/** True when --only or --skip left requirements out. */
export function isPartial(results: Results): boolean {
  return results.run.selection.only.length > 0 || results.run.selection.skip.length > 0;
}

/** Headings for the areas (id prefixes), in the order the catalogue lists them. */
export const AREA_TITLES: Readonly<Record<string, string>> = {
  service: 'Service',
  auth: 'Authentication',
  errors: 'Errors',
  listPets: 'List all animals (listPets)',
  createPet: 'Add an animal (createPet)',
  getPet: 'Get an animal (getPet, deprecated)',
  consistency: 'Consistency across operations',
};

/** Entries grouped by area, in first-seen order. */
export function byArea(results: Results): { area: string; title: string; entries: RequirementResult[] }[] {
  const groups = new Map<string, RequirementResult[]>();
  for (const e of results.requirements) {
    const list = groups.get(e.area);
    if (list) list.push(e);
    else groups.set(e.area, [e]);
  }
  return [...groups].map(([area, entries]) => ({ area, title: AREA_TITLES[area] ?? area, entries }));
}
