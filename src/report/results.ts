// The one results tree of a run: every report file and the terminal summary render from it.
// One entry per requirement; its outcome comes from its checks (see requirementOutcome), and the
// verdict follows from the entries (see verdictOf).
import type { Exchange } from '../evidence.js';
import { areaOf, worse, type Level, type OutcomeKind } from '../requirement.js';

/** Identifies the format of conformance.json; see schemas/conformance-report.schema.json. */
export const REPORT_FORMAT = 'petstore-conformance/report';
/** Semantic version of the format: a new optional field is a minor bump, anything else major. */
export const REPORT_FORMAT_VERSION = '1.1.0';
export const INTERFACE = { name: 'Pet Store Service Interface', version: '1.0.0' } as const;
export const LEVELS: readonly Level[] = ['MUST', 'SHOULD'];

/**
 * - conformant: no MUST requirement failed, and every MUST requirement that ran was decided.
 * - nonconformant: at least one MUST requirement failed: the target broke a rule (with
 *   PETSTORE_STRICT=1, a SHOULD requirement too). A proven violation stands even if the run
 *   was interrupted or other checks could not decide.
 * - inconclusive: nothing was proven violated, but the run cannot vouch for the target: a MUST
 *   requirement ended in `error` (the suite or the network could not decide), the run was
 *   interrupted, the suite itself failed, or no requirement ran.
 * Skipped requirements (read-only mode, write budget, a date) leave the verdict alone; they are
 * counted and listed with their reasons, and a partial selection (--only/--skip) is stated.
 */
export type Verdict = 'conformant' | 'nonconformant' | 'inconclusive';

/** How a verdict reads in a heading. */
export const VERDICT_TITLE: Readonly<Record<Verdict, string>> = {
  conformant: 'Conformant',
  nonconformant: 'Not conformant',
  inconclusive: 'Inconclusive',
};

/** One finished (or unfinished) test, as the vitest adapter or the harness reports it. */
export interface CheckInput {
  requirement: { id: string; level: Level; section: string; statement: string };
  /** Test name; starts with the requirement id. */
  name: string;
  outcome: OutcomeKind;
  message?: string;
  evidence: readonly Exchange[];
  durationMs: number;
}

export interface RunInput {
  suite: { name: string; version: string; commit: string | null };
  target: { baseUrl: string; embedded: boolean };
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
}

export interface CheckResult {
  name: string;
  kind: 'requirement' | 'property';
  outcome: OutcomeKind;
  durationMs: number;
  message?: string;
}

export interface RequirementResult {
  id: string;
  level: Level;
  section: string;
  statement: string;
  area: string;
  outcome: OutcomeKind;
  /** Sum over its checks. */
  durationMs: number;
  /** When skipped: why. */
  skipReason?: string;
  /** When failed or error: what was sent, what came back, what was expected. */
  message?: string;
  /** The exchanges that showed the failure (at most MAX_EVIDENCE). */
  evidence?: Exchange[];
  evidenceOmitted?: number;
  /** The first exchange's reproduction; the key is written $PETSTORE_API_KEY. */
  reproduce?: string;
  checks: CheckResult[];
}

export type Tally = { requirements: number } & Record<OutcomeKind, number>;

export interface Results {
  format: typeof REPORT_FORMAT;
  formatVersion: string;
  suite: { name: string; version: string; commit: string | null };
  interface: { name: string; version: string };
  target: { baseUrl: string; embedded: boolean };
  run: {
    startedAt: string;
    finishedAt: string;
    durationMs: number;
    seed: number | null;
    replay: string | null;
    node: string;
    strict: boolean;
    readOnly: boolean;
    clock: string | null;
    selection: { only: string[]; skip: string[] };
    interrupted: boolean;
    errors: string[];
    /** Since 1.1.0. */
    requests: number | null;
  };
  verdict: Verdict;
  verdictReason: string;
  counts: Record<Level, Tally>;
  createdPets: { count: number; runTag: string | null; ledger: string };
  requirements: RequirementResult[];
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
      kind: c.name.startsWith(`${id} (property) `) ? 'property' : 'requirement',
      outcome: c.outcome,
      durationMs: c.durationMs,
      ...(c.message ? { message: c.message } : {}),
    })),
  };
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

export function verdictOf(
  entries: readonly RequirementResult[],
  run: Pick<RunInput, 'strict' | 'interrupted' | 'errors'>,
): { verdict: Verdict; reason: string } {
  const deciding = entries.filter((e) => blocks(e.level, run.strict));
  const levels = run.strict ? 'MUST or SHOULD' : 'MUST';
  const failed = deciding.filter((e) => e.outcome === 'failed');
  if (failed.length > 0) {
    return { verdict: 'nonconformant', reason: `${plural(failed.length, `${levels} requirement`)} violated: ${ids(failed)}` };
  }
  const undecided = deciding.filter((e) => e.outcome === 'error');
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

/** The command that replays a run: same seed, same target; the key comes from the environment. */
export function replayCommand(seed: number, target: RunInput['target']): string {
  const where = target.embedded ? '' : `PETSTORE_BASE_URL='${target.baseUrl.replace(/'/g, `'\\''`)}' `;
  return `${where}PETSTORE_SEED=${seed} npm run conformance`;
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
  const { verdict, reason } = verdictOf(requirements, run);
  return {
    format: REPORT_FORMAT,
    formatVersion: REPORT_FORMAT_VERSION,
    suite: { ...run.suite },
    interface: { ...INTERFACE },
    target: { ...run.target },
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
    },
    verdict,
    verdictReason: reason,
    counts: { MUST: tally(requirements, 'MUST'), SHOULD: tally(requirements, 'SHOULD') },
    createdPets: { count: run.createdPets.length, runTag: run.runTag, ledger: LEDGER_FILE },
    requirements,
  };
}

/** Requirements that kept the run from a clean result, worst first: violations, undecided, warnings. */
export function findings(results: Results): { violations: RequirementResult[]; undecided: RequirementResult[]; warnings: RequirementResult[] } {
  const strict = results.run.strict;
  const bad = (e: RequirementResult) => e.outcome === 'failed' || e.outcome === 'error';
  return {
    violations: results.requirements.filter((e) => e.outcome === 'failed' && blocks(e.level, strict)),
    undecided: results.requirements.filter((e) => e.outcome === 'error' && blocks(e.level, strict)),
    warnings: results.requirements.filter((e) => bad(e) && !blocks(e.level, strict)),
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
