// The one results tree of a run: every report file and the terminal summary render from it.
// One entry per requirement; its outcome comes from its checks (see requirementOutcome), and the
// verdict follows from the entries (see verdictOf).
import { addRetries, GATEWAY_FAILING, noRetries, type Retries } from '../client.js';
import type { Exchange } from '../evidence.js';
import { areaOf, worse, type CheckKind, type Level, type OutcomeKind } from '../requirement.js';
import { matches } from '../select.js';
import type { BaselineEntry } from '../generated/schema-types.js';
import type { RequirementResult, Results, RunRetries, Tally, Verdict } from '../generated/report-types.js';

// The tree's types are generated from schemas/conformance-report.schema.json (npm run generate);
// the schema's descriptions say what each field means and since which format version.
export type { BaselineEntry, RequirementResult, Results, RunRetries, Tally, Verdict };
export type { BaselineMark, CheckResult, RunBaseline } from '../generated/report-types.js';

/** A loaded baseline, as a report knows it (src/baseline.ts loads one): what the run records and matches requirements against. */
export interface Baseline {
  path: string;
  sha256: string;
  kind: 'known-deviations' | 'report';
  /** The entries in force. */
  entries: BaselineEntry[];
  /** Entries whose `until` has passed: they count as not in the baseline. */
  expired: BaselineEntry[];
}

/** Identifies the format of conformance.json; see schemas/conformance-report.schema.json. */
export const REPORT_FORMAT = 'petstore-conformance/report';
/** Semantic version of the format: a new optional field is a minor bump, anything else major. */
export const REPORT_FORMAT_VERSION = '1.4.0';
export const INTERFACE = { name: 'Pet Store Service Interface', version: '1.0.0' } as const;
export const LEVELS: readonly Level[] = ['MUST', 'SHOULD'];


/** How a verdict reads in a heading. */
export const VERDICT_TITLE: Readonly<Record<Verdict, string>> = {
  conformant: 'Conformant',
  nonconformant: 'Not conformant',
  inconclusive: 'Inconclusive',
  'not-tested': 'Not tested',
};

// How a check's message begins when its answers came from a gateway whose backend is failing.
export { GATEWAY_FAILING };

/** One finished (or unfinished) test, as the vitest adapter or the harness reports it. */
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
}


export interface RunInput {
  suite: { name: string; version: string; commit: string | null };
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
}



export const MAX_EVIDENCE = 10;
export const LEDGER_FILE = 'created-pets.json';

/** Does a failure or error at this level decide the verdict (else it is a warning)? */
export function blocks(level: Level, strict: boolean): boolean {
  return level === 'MUST' || strict;
}

/**
 * The one-line reason: the first line of a message, cut to `max` characters. A summary line
 * such as "2 of 12 cases failed:" is joined with the first case, so the line says what broke.
 */
export function oneLine(message: string | undefined, max = 200): string {
  const lines = (message ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
  let line = lines[0] ?? '';
  if (line.endsWith(':') && lines[1]) line = `${line} ${lines[1].replace(/^- /, '')}${lines.length > 2 ? ' …' : ''}`;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * A requirement's outcome from its checks (its own and any properties), a three-valued "and": a
 * violation proven by any check stands (failed), whatever the others say, even if one could not
 * finish (a run interrupted, a request timed out); else a check that could not decide makes it
 * undecided (error); else a skipped check makes it skipped; else it passed.
 */
export function requirementOutcome(outcomes: readonly OutcomeKind[]): OutcomeKind {
  return outcomes.reduce<OutcomeKind>(worse, 'passed');
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
    })),
  };
  const retried = checks.flatMap((c) => (c.retries ? [c.retries] : []));
  if (retried.length > 0) entry.retries = retried.reduce(addRetries, noRetries());
  const notes = checks.flatMap((c) => (c.note ? [c.note] : []));
  if (outcome === 'passed' && notes.length > 0) entry.note = notes.join('\n');
  if (outcome === 'skipped') entry.skipReason = worst.map((c) => c.message ?? 'skipped').join('\n');
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

export function tally(entries: readonly RequirementResult[], level: Level): Tally {
  const t: Tally = { requirements: 0, passed: 0, skipped: 0, failed: 0, error: 0 };
  for (const e of entries) {
    if (e.level !== level) continue;
    t.requirements++;
    t[e.outcome]++;
  }
  return t;
}

/** Ids in a verdict's one-line reason: all of a few, the first of many (every report lists them all below). */
const REASON_IDS = 8;
const ids = (entries: readonly RequirementResult[]) =>
  entries.length <= REASON_IDS
    ? entries.map((e) => e.id).join(', ')
    : `${entries.slice(0, REASON_IDS - 2).map((e) => e.id).join(', ')} and ${entries.length - (REASON_IDS - 2)} more`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Undecided requirements whose answers came from a failing gateway: the target failed during the run. */
export function gatewayFailed(entries: readonly RequirementResult[]): RequirementResult[] {
  return entries.filter((e) => e.outcome === 'error' && (e.message ?? '').includes(GATEWAY_FAILING));
}

/** Said once for every requirement the failing gateway left undecided, instead of once per requirement. */
export const TARGET_FAILED = `the target failed during the run (${GATEWAY_FAILING})`;

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
  run: Pick<RunInput, 'strict' | 'interrupted' | 'errors' | 'diagnosis'>,
): { verdict: Verdict; reason: string } {
  if (run.diagnosis) return { verdict: 'not-tested', reason: run.diagnosis };
  const deciding = entries.filter((e) => blocks(e.level, run.strict));
  const levels = run.strict ? 'MUST or SHOULD' : 'MUST';
  const failed = deciding.filter((e) => e.outcome === 'failed');
  const undecided = deciding.filter((e) => e.outcome === 'error');
  const fellOver = gatewayFailed(undecided);
  if (failed.length > 0) {
    const also = fellOver.length > 0 ? `; ${TARGET_FAILED}, ${fellOver.length} more could not be decided` : '';
    return { verdict: 'nonconformant', reason: `${plural(failed.length, `${levels} requirement`)} violated: ${ids(failed)}${also}` };
  }
  if (fellOver.length > 0) {
    return { verdict: 'inconclusive', reason: `${TARGET_FAILED}: ${plural(undecided.length, `${levels} requirement`)} could not be decided` };
  }
  if (undecided.length > 0) {
    return { verdict: 'inconclusive', reason: `${plural(undecided.length, `${levels} requirement`)} could not be decided: ${ids(undecided)}` };
  }
  if (run.interrupted) return { verdict: 'inconclusive', reason: 'the run was interrupted before every check finished' };
  if (run.errors.length > 0) return { verdict: 'inconclusive', reason: `the suite itself failed: ${oneLine(run.errors[0], 160)}` };
  if (entries.length === 0) return { verdict: 'inconclusive', reason: 'no requirement was checked' };
  const must = tally(entries, 'MUST');
  const skipped = must.skipped > 0 ? `; ${plural(must.skipped, 'MUST requirement')} skipped` : '';
  return { verdict: 'conformant', reason: `every MUST requirement checked was met (${must.passed} of ${must.requirements})${skipped}` };
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

/** Builds the tree from the checks in catalogue order; checks of one requirement are merged. */
export function buildResults(checks: readonly CheckInput[], run: RunInput): Results {
  const byId = new Map<string, CheckInput[]>();
  for (const c of checks) {
    const list = byId.get(c.requirement.id);
    if (list) list.push(c);
    else byId.set(c.requirement.id, [c]);
  }
  const requirements = [...byId.values()].map(requirementResult);
  // A run that never reached the target has nothing to compare with the baseline.
  if (run.baseline && !run.diagnosis) for (const e of requirements) markBaseline(e, run.baseline);
  const { verdict, reason } = verdictOf(requirements, run);
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
      ...(run.baseline
        ? { baseline: { path: run.baseline.path, sha256: run.baseline.sha256, kind: run.baseline.kind, entries: run.baseline.entries.length, expired: run.baseline.expired } }
        : {}),
    },
    verdict,
    verdictReason: reason,
    counts: { MUST: tally(requirements, 'MUST'), SHOULD: tally(requirements, 'SHOULD') },
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

/**
 * Requirements that kept the run from a clean result, worst first: violations, undecided,
 * warnings; then those the baseline names: known deviations (apart from the others, whatever
 * their level) and fixed ones (passed: remove them from the baseline).
 */
export function findings(results: Results): {
  violations: RequirementResult[];
  undecided: RequirementResult[];
  warnings: RequirementResult[];
  known: RequirementResult[];
  fixed: RequirementResult[];
} {
  const strict = results.run.strict;
  const bad = (e: RequirementResult) => e.outcome === 'failed' || e.outcome === 'error';
  const open = results.requirements.filter((e) => e.baseline?.status !== 'known');
  return {
    violations: open.filter((e) => e.outcome === 'failed' && blocks(e.level, strict)),
    undecided: open.filter((e) => e.outcome === 'error' && blocks(e.level, strict)),
    warnings: open.filter((e) => bad(e) && !blocks(e.level, strict)),
    known: results.requirements.filter((e) => e.baseline?.status === 'known'),
    fixed: results.requirements.filter((e) => e.baseline?.status === 'fixed'),
  };
}

/**
 * The release gate of a run with a baseline: it fails on a regression (a MUST requirement, with
 * --strict a SHOULD too, that failed or could not be decided and is not known), on a failure of
 * the suite itself, and with --strict on a fixed entry still in the baseline. The verdict stays
 * what the service deserves; the gate is what the exit code follows.
 */
/** The baseline's word on an entry: its reason, link and end date ('' when it has none). */
export function baselineSaid(e: RequirementResult): string {
  return e.baseline ? `${e.baseline.reason}${e.baseline.link ? ` (${e.baseline.link})` : ''}${e.baseline.until ? `, until ${e.baseline.until}` : ''}` : '';
}

export function gateOf(results: Results): { passed: boolean; regressions: RequirementResult[]; fixed: RequirementResult[]; reason: string } {
  const { violations, undecided, fixed } = findings(results);
  const regressions = [...violations, ...undecided];
  const strict = results.run.strict;
  const passed = regressions.length === 0 && results.run.errors.length === 0 && !results.run.interrupted && !(strict && fixed.length > 0);
  const parts: string[] = [];
  if (regressions.length) parts.push(`${plural(regressions.length, 'regression')} (not in the baseline): ${ids(regressions)}`);
  if (results.run.errors.length) parts.push('the suite itself failed');
  if (fixed.length) parts.push(`${plural(fixed.length, 'baseline entry', 'baseline entries')} fixed${strict ? ' (fails with --strict)' : ''}: remove ${ids(fixed)} from the baseline`);
  const known = results.requirements.filter((e) => e.baseline?.status === 'known').length;
  if (passed && regressions.length === 0) parts.unshift(`no regression against the baseline (${plural(known, 'known deviation')})`);
  return { passed, regressions, fixed, reason: parts.join('; ') };
}

/**
 * Retries in words, e.g. "429 ×3, 503 ×1 with Retry-After, 3 retried after 2.0 s of waits asked;
 * 1 resent after a stale connection". Undefined when there were none.
 */
export function describeRetries(r: Retries): string | undefined {
  const parts: string[] = [];
  const statuses = Object.entries(r.statuses).map(([status, n]) => `${status} ×${n}`);
  const waits = r.retryAfterMs > 0 ? ` after ${(r.retryAfterMs / 1000).toFixed(1)} s of waits asked` : '';
  if (statuses.length > 0) parts.push(`${statuses.join(', ')} with Retry-After, ${r.count > 0 ? `${r.count} retried${waits}` : 'none retried'}`);
  if (r.resent > 0) parts.push(`${r.resent} resent after a stale connection`);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** The run's retries and the pauses and slowdown they caused, in words; undefined when there were none. */
export function describeRunRetries(r: RunRetries | null | undefined): string | undefined {
  if (!r) return undefined;
  const parts = [describeRetries(r)];
  if (r.pacing.pausedMs > 0) parts.push(`every request paused ${(r.pacing.pausedMs / 1000).toFixed(1)} s in all`);
  if (r.pacing.slowestRate !== undefined) parts.push(`the pace slowed to ~${r.pacing.slowestRate} req/s`);
  const said = parts.filter(Boolean);
  return said.length > 0 ? said.join('; ') : undefined;
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
