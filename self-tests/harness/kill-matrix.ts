// The kill matrix: which requirement caught each fault (or MISSED), which conforming variants
// drew a false alarm, and which requirements no fault exercises. Built once, printed and written.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Level, OutcomeKind, Requirement, RequirementId } from '../../src/checks/requirement.js';
import { renderReports } from '../../src/report/reporter.js';
import { findingLists, findings as reported } from '../../src/report/verdict.js';
import type { Fault, ServerSetup, Variant } from './faults-kit.js';
import { failing, HARNESS_SEED, runSetup, type HarnessRun } from './harness.js';
import { failedBothWays, mustFailuresOf, resultsOf, storyOf } from './results-of.js';

export interface Finding {
  id: string;
  level: Level | 'unknown';
  outcome: OutcomeKind;
  /** First line of the check's message. */
  message: string;
}

export interface FaultRow {
  fault: string;
  breaks: RequirementId;
  does: string;
  /** The named requirement when it failed; null when the fault was MISSED. */
  caughtBy: string | null;
  /** Outcome of the named requirement ('absent' when the catalogue has no such id). */
  outcome: OutcomeKind | 'absent';
  /** Why the named requirement did not catch it, or its violation message when it did. */
  message: string;
  /**
   * A fault runs only the checks of the requirement it names. When MISSED, the whole catalogue
   * runs once more to show what failed instead (never credit, only a diagnosis).
   */
  failingInstead: string[];
  /**
   * For a fault against a SHOULD requirement (run with the whole catalogue): the MUST
   * requirements its reports also fail (violated or undecided; a MUST check blocked by the SHOULD
   * it relied on is not one). A server that only misses a SHOULD is conforming, so any entry here
   * is a MUST check leaning on that SHOULD: a false alarm.
   */
  mustFailures?: Finding[];
  /**
   * Root cause first: the failure the reports of a whole-catalogue run against the fault name
   * first, and the root it is grouped under (null when that run failed nothing), with what that
   * run cost when the fault was caught (at ROOT_CAUSE_RUNS against a MUST, SHOULD_WHOLE_RUNS against a SHOULD).
   */
  rootCause: { first: string; root: string; group?: string[]; ms?: number; requests?: number } | null;
  /** Of the fault's notUnder, those its whole-catalogue run's reports file a violation under. */
  misfiled?: string[];
  /** The MUST requirements that run fails as its reports say and as vitest's adapter would: equal. */
  paths: { reports: string[]; vitest: string[] };
  /** That whole-catalogue run as one of the fault's seeds (the harness's, 42). */
  wholeRun: SeedRow;
  /** The largest file of that run's reports (rendered as the reporter renders them). */
  largestReport: { file: string; bytes: number };
  ms: number;
  requests: number;
}

export interface VariantRow {
  variant: string;
  does: string;
  /** Seed and PETSTORE_RUNS of a run with other inputs (flakiness); absent for the matrix's own run (the harness's seed 42, the default runs). */
  seed?: number;
  runs?: number;
  pass: boolean;
  /** Failures of MUST requirements: false alarms. */
  mustFailures: Finding[];
  /** Failures of SHOULD requirements: warnings, reported. */
  shouldFailures: Finding[];
  skipped: Finding[];
  ms: number;
  requests: number;
}

export interface KillMatrix {
  counts: {
    faults: number;
    caught: number;
    missed: number;
    variants: number;
    variantsPassing: number;
    falseAlarms: number;
    requirements: number;
    requirementsWithoutFault: number;
    /** Faults against a SHOULD requirement that also fail a MUST one. */
    shouldFaultsFailingMust: number;
  };
  /**
   * Root cause first: over the faults, how often the failure the reports name first is the
   * fault's target or is grouped under it (see src/report/causes.ts); each miss with what came first.
   */
  rootCauseFirst: {
    faults: number;
    first: number;
    share: number;
    /** PETSTORE_RUNS of the whole-catalogue run after a caught fault against a MUST (against a SHOULD: SHOULD_WHOLE_RUNS; a MISSED one: the default). */
    runs: number;
    /** The whole-catalogue runs after the faults' own: how many, and their time summed over the processes. */
    extraRuns: number;
    extraMs: number;
    misses: { fault: string; breaks: string; first: string | null; root: string | null }[];
  };
  reference: VariantRow;
  faults: FaultRow[];
  variants: VariantRow[];
  /** Every catalogue requirement and the faults that name it. */
  coverage: { id: string; level: Level; faults: string[] }[];
  parallelism: number;
  durationMs: number;
}

/** The first line of a check's message, with the first case when it only counts cases. */
function firstLine(text: string | undefined): string {
  const [head = '', next] = (text ?? '').split('\n');
  return head.endsWith(':') && next ? `${head} ${next.trim()}` : head;
}

function findings(run: HarnessRun, levels: ReadonlyMap<string, Level>, kinds: readonly OutcomeKind[]): Finding[] {
  return [...run.outcomes]
    .filter(([, o]) => kinds.includes(o.outcome))
    .map(([id, o]): Finding => ({
      id,
      level: levels.get(id) ?? 'unknown',
      outcome: o.outcome,
      message: firstLine(o.message),
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * The failure the reports name first for a whole-catalogue run (the first violation, else the
 * first undecided, else the first warning, in root-cause order) and the root it is grouped under
 * (itself when it is one); undefined when nothing failed.
 */
export function firstNamed(run: HarnessRun): { first: string; root: string; group?: string[] } | undefined {
  const results = resultsOf(run);
  // A target turned failing after a valid write leads the violations: the failures on its answers (findingLists).
  const turned = results.run.targetPoisoned?.cause ? undefined : findingLists(results).turned?.entries.map((e) => e.id);
  if (turned?.length) return { first: turned[0] as string, root: turned[0] as string, group: turned };
  const { violations, undecided, warnings } = reported(results);
  const first = [...violations, ...undecided, ...warnings][0];
  return first && { first: first.id, root: first.causedBy ?? first.id };
}

/** Of `ids`, those the reports of a run name as violated. */
const violatedOf = (run: HarnessRun, ids: readonly string[]): string[] =>
  reported(resultsOf(run)).violations.flatMap((e) => (ids.includes(e.id) ? [e.id] : []));

/** Pseudo requirement id under which a run that could not even start reports its error. */
const SETUP = '(server setup)';

/** Runs a setup; a server that cannot be built or started is reported, not thrown, so the matrix still stands. */
async function attempt(setup: ServerSetup, only?: readonly string[]): Promise<HarnessRun> {
  try {
    return await runSetup(setup, only);
  } catch (err) {
    const message = `the server could not be run: ${err instanceof Error ? err.message : String(err)}`;
    return {
      outcomes: new Map([[SETUP, { outcome: 'error', message, evidence: [], durationMs: 0 }]]),
      checks: [],
      requests: 0,
      ms: 0,
    };
  }
}

function variantRow(v: Variant, run: HarnessRun, levels: ReadonlyMap<string, Level>): VariantRow {
  const failures = findings(run, levels, ['failed', 'error']);
  const mustFailures = failures.filter((f) => f.level !== 'SHOULD');
  return {
    variant: v.name,
    does: v.does,
    pass: mustFailures.length === 0,
    mustFailures,
    shouldFailures: failures.filter((f) => f.level === 'SHOULD'),
    skipped: findings(run, levels, ['skipped']),
    ms: run.ms,
    requests: run.requests,
  };
}

/**
 * PETSTORE_RUNS of the whole-catalogue run a caught fault against a MUST gets for root cause
 * first: the fault's own run proves its target at the default; one case per property keeps the
 * extra run cheap (the same share at 1, 5 and 50, measured).
 */
export const ROOT_CAUSE_RUNS = 1;
/**
 * PETSTORE_RUNS of a caught SHOULD fault's whole-catalogue run, which finds the MUST checks leaning
 * on the SHOULD: they fail on fixed cases or within a few inputs (default-ten's consistency.model
 * at 10 as at 50, not at 5), and the run costs a third of one at 50.
 */
export const SHOULD_WHOLE_RUNS = 10;

/** The largest report file a run's results render to. */
function largestReport(run: HarnessRun): { file: string; bytes: number } {
  const sizes = renderReports(resultsOf(run), []).map((r) => ({ file: r.file, bytes: Buffer.byteLength(r.content) }));
  return sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
}

async function faultRow(f: Fault, levels: ReadonlyMap<string, Level>): Promise<FaultRow> {
  const should = levels.get(f.breaks) === 'SHOULD';
  // Only the named requirement's checks, at the harness's runs: it must catch the fault on its own.
  const run = await attempt(f, [f.breaks]);
  const target = run.outcomes.get(f.breaks);
  const outcome = target?.outcome ?? 'absent';
  const caught = outcome === 'failed';
  // Then the whole catalogue: for root cause first, for what failed instead when MISSED, and against
  // a SHOULD for the MUST checks that lean on it (see SHOULD_WHOLE_RUNS).
  const runs = !caught ? undefined : should ? SHOULD_WHOLE_RUNS : ROOT_CAUSE_RUNS;
  const whole = await attempt(runs === undefined ? f : { ...f, config: { ...f.config, runs } });
  const failingInstead = caught ? [] : failing(whole).filter((id) => id !== f.breaks);
  const named = whole.checks.length > 0 ? firstNamed(whole) : undefined;
  const setupError = run.outcomes.get(SETUP)?.message;
  const why = setupError
    ? setupError
    : outcome === 'absent'
      ? `the catalogue has no requirement ${f.breaks}`
      : caught
        ? firstLine(target?.message)
        : `${f.breaks} ${outcome}${target?.message ? `: ${firstLine(target.message)}` : ''}`;
  return {
    fault: f.name,
    breaks: f.breaks,
    does: f.does,
    caughtBy: caught ? f.breaks : null,
    outcome,
    message: why,
    failingInstead,
    ...(should
      ? {
          mustFailures: mustFailuresOf(whole).map((e) => ({
            id: e.id,
            level: e.level,
            outcome: e.outcome,
            message: firstLine(e.message),
          })),
        }
      : {}),
    rootCause: named ? { ...named, ...(caught ? { ms: whole.ms, requests: whole.requests } : {}) } : null,
    ...(f.notUnder ? { misfiled: violatedOf(whole, f.notUnder) } : {}),
    paths: failedBothWays(whole),
    wholeRun: asSeedRow(f, f.config?.seed ?? HARNESS_SEED, runs ?? f.config?.runs, whole, levels),
    largestReport: largestReport(whole),
    ms: run.ms,
    requests: run.requests,
  };
}

/** One whole-catalogue run of a fault with a seed of its own, at PETSTORE_RUNS=SEED_RUNS (see seedRow) unless its row's. */
export interface SeedRow {
  fault: string;
  seed: number;
  /** PETSTORE_RUNS; absent: the default. */
  runs?: number;
  /** Whether the requirement the fault names failed. */
  caught: boolean;
  /** MUST requirements that failed or could not be decided, sorted. */
  must: string[];
  /** What the reports say kept the run from conformance, as ids, in order and grouped (see storyOf). */
  story: string[];
  requests: number;
  ms: number;
}

/**
 * PETSTORE_RUNS of a fault's runs with other seeds: one generated input per property. What a fault
 * breaks must show on the example cases every seed sends, so one input is enough, and cheap.
 */
export const SEED_RUNS = 1;

/** A fault's whole catalogue with another seed: which MUST requirements fail, and whether its own did. */
async function seedRow(f: Fault, seed: number, levels: ReadonlyMap<string, Level>): Promise<SeedRow> {
  return asSeedRow(f, seed, SEED_RUNS, await attempt({ ...f, config: { ...f.config, seed, runs: SEED_RUNS } }), levels);
}

function asSeedRow(
  f: Fault,
  seed: number,
  runs: number | undefined,
  run: HarnessRun,
  levels: ReadonlyMap<string, Level>,
): SeedRow {
  // Which requirements failed only on a turned target's answers is timing (failedOnTurn): not compared.
  const turned = new Set(findingLists(resultsOf(run)).turned?.entries.map((e) => e.id));
  const must = findings(run, levels, ['failed', 'error'])
    .filter((x) => x.level !== 'SHOULD' && !turned.has(x.id))
    .map((x) => x.id);
  return {
    fault: f.name,
    seed,
    ...(runs === undefined ? {} : { runs }),
    caught: run.outcomes.get(f.breaks)?.outcome === 'failed',
    must,
    story: storyOf(run),
    requests: run.requests,
    ms: run.ms,
  };
}

/**
 * One server of the matrix: the reference server or a variant (a whole-catalogue run), or a fault.
 * A variant job with a seed is one more run of it with other inputs: not in the matrix, it is
 * compared with the matrix's run for flakiness; a fault job with a seed, likewise (a SeedRow).
 */
export type MatrixJob = { variant: string; seed?: number; runs?: number } | { fault: string; seed?: number };

const reference: Variant = { name: 'reference', does: 'the reference server as it is', wrap: (h) => h };

/** Every server of the matrix, the whole-catalogue runs (reference, variants: the longest) first. */
export const matrixJobs = (faults: readonly Fault[], variants: readonly Variant[]): MatrixJob[] => [
  ...[reference, ...variants].map((v) => ({ variant: v.name })),
  ...faults.map((f) => ({ fault: f.name })),
];

/** Runs one server of the matrix. Jobs name their server, so a child process can run them too. */
export async function runMatrixJob(
  job: MatrixJob,
  catalogue: readonly Requirement[],
  faults: readonly Fault[],
  variants: readonly Variant[],
): Promise<VariantRow | FaultRow | SeedRow> {
  const levels = new Map(catalogue.map((r) => [r.id, r.level]));
  if ('fault' in job) {
    const f = faults.find((x) => x.name === job.fault);
    if (!f) throw new Error(`no fault named ${job.fault}`);
    return job.seed === undefined ? faultRow(f, levels) : seedRow(f, job.seed, levels);
  }
  const v = [reference, ...variants].find((x) => x.name === job.variant);
  if (!v) throw new Error(`no variant named ${job.variant}`);
  if (job.seed === undefined) return variantRow(v, await attempt(v), levels);
  const inputs = { seed: job.seed, ...(job.runs === undefined ? {} : { runs: job.runs }) };
  return { ...variantRow(v, await attempt({ ...v, config: { ...v.config, ...inputs } }), levels), ...inputs };
}

/** The matrix from the rows of `matrixJobs(faults, variants)`, in that order. */
export function assembleKillMatrix(
  catalogue: readonly Requirement[],
  faults: readonly Fault[],
  rows: readonly (VariantRow | FaultRow)[],
  parallelism: number,
  durationMs: number,
): KillMatrix {
  const whole = rows.length - faults.length;
  const [referenceRow, ...variantRows] = rows.slice(0, whole) as VariantRow[];
  const faultRows = rows.slice(whole) as FaultRow[];
  const coverage = catalogue.map((r) => ({
    id: r.id,
    level: r.level,
    faults: faults.filter((f) => f.breaks === r.id).map((f) => f.name),
  }));
  const caught = faultRows.filter((r) => r.caughtBy !== null).length;
  const misses = faultRows.filter((r) => r.rootCause?.root !== r.breaks && !r.rootCause?.group?.includes(r.breaks));
  const extras = faultRows.flatMap((r) => (r.rootCause?.ms === undefined ? [] : [r.rootCause.ms]));
  return {
    counts: {
      faults: faultRows.length,
      caught,
      missed: faultRows.length - caught,
      variants: variantRows.length,
      variantsPassing: variantRows.filter((v) => v.pass).length,
      falseAlarms: variantRows.reduce((n, v) => n + v.mustFailures.length, 0),
      requirements: coverage.length,
      requirementsWithoutFault: coverage.filter((c) => c.faults.length === 0).length,
      shouldFaultsFailingMust: faultRows.filter((r) => r.mustFailures?.length).length,
    },
    rootCauseFirst: {
      faults: faultRows.length,
      first: faultRows.length - misses.length,
      share:
        faultRows.length === 0 ? 1 : Math.round(((faultRows.length - misses.length) / faultRows.length) * 1000) / 1000,
      runs: ROOT_CAUSE_RUNS,
      extraRuns: extras.length,
      extraMs: extras.reduce((a, b) => a + b, 0),
      misses: misses.map((r) => ({
        fault: r.fault,
        breaks: r.breaks,
        first: r.rootCause?.first ?? null,
        root: r.rootCause?.root ?? null,
      })),
    },
    reference: referenceRow as VariantRow,
    faults: faultRows,
    variants: variantRows,
    coverage,
    parallelism,
    durationMs,
  };
}

const cell = (text: string, max = 160) => {
  const t = text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
  return t.length > max ? `${t.slice(0, max)}…` : t;
};
const ids = (list: Finding[]) => list.map((f) => f.id).join(', ') || '-';

export function renderMarkdown(m: KillMatrix): string {
  const c = m.counts;
  const referenceFails = [...m.reference.mustFailures, ...m.reference.shouldFailures];
  const lines = [
    '# Kill matrix',
    '',
    `${c.faults} faults: ${c.caught} caught by the requirement they name, ${c.missed} MISSED. ` +
      `${c.variants} conforming variants: ${c.variantsPassing} pass, ${c.falseAlarms} false alarm(s). ` +
      `${c.requirements} requirements, ${c.requirementsWithoutFault} without a fault. ` +
      `${c.shouldFaultsFailingMust} fault(s) against a SHOULD also fail a MUST. ` +
      `${m.faults.length + m.variants.length + 1} servers, ${m.parallelism} at a time, in ${(m.durationMs / 1000).toFixed(1)} s.`,
    '',
    `Reference server: ${referenceFails.length === 0 ? 'no failure' : `FAILS ${ids(referenceFails)}`}.`,
    '',
    '## Faults',
    '',
    '| fault | breaks | caught by | failing instead (when MISSED) | what the server does | evidence |',
    '|---|---|---|---|---|---|',
    ...m.faults.map(
      (r) =>
        `| ${r.fault} | ${r.breaks} | ${r.caughtBy ?? '**MISSED**'} | ${r.failingInstead.join(', ') || '-'} | ${cell(r.does)} | ${cell(r.message)} |`,
    ),
    '',
    '## Conforming variants',
    '',
    '| variant | result | MUST failures (false alarms) | SHOULD failures (warnings) | skipped | what the server does |',
    '|---|---|---|---|---|---|',
    ...m.variants.map(
      (v) =>
        `| ${v.variant} | ${v.pass ? 'pass' : '**FALSE ALARM**'} | ${ids(v.mustFailures)} | ${ids(v.shouldFailures)} | ${ids(v.skipped)} | ${cell(v.does)} |`,
    ),
  ];
  const leaning = m.faults.filter((r) => r.mustFailures?.length);
  lines.push(
    '',
    '## Faults against a SHOULD that also fail a MUST',
    '',
    'A server whose only flaw is a missed SHOULD still conforms, so each fault against a SHOULD runs every MUST requirement too. ' +
      'A MUST failure here means a MUST check leans on that SHOULD: a false alarm against such a server.',
    '',
  );
  if (leaning.length === 0) lines.push('None.');
  else {
    lines.push('| fault | breaks (SHOULD) | MUST failing too | message |', '|---|---|---|---|');
    lines.push(
      ...leaning.flatMap((r) =>
        (r.mustFailures ?? []).map((f) => `| ${r.fault} | ${r.breaks} | ${f.id} | ${cell(f.message, 300)} |`),
      ),
    );
  }
  const rc = m.rootCauseFirst;
  lines.push(
    '',
    '## Root cause first',
    '',
    `Each fault against the whole catalogue: the failure its reports name first is the fault's target, or is grouped under it ` +
      `(also failed because of it), for **${rc.first} of ${rc.faults} faults (${(rc.share * 100).toFixed(1)}%)**. ` +
      `After its own run, each fault got one whole-catalogue run (${rc.extraRuns} in all, ${(rc.extraMs / 1000).toFixed(1)} s): at PETSTORE_RUNS=${rc.runs} ` +
      `against a MUST, ${SHOULD_WHOLE_RUNS} against a SHOULD, the default when MISSED.`,
    '',
  );
  if (rc.misses.length === 0) lines.push('No fault named another cause first.');
  else {
    lines.push('| fault | breaks | named first | grouped under |', '|---|---|---|---|');
    lines.push(
      ...rc.misses.map(
        (x) =>
          `| ${x.fault} | ${x.breaks} | ${x.first ?? '(nothing failed)'} | ${x.root === x.first ? '-' : (x.root ?? '-')} |`,
      ),
    );
  }
  const alarms = m.variants.flatMap((v) => [...v.mustFailures, ...v.shouldFailures].map((f) => ({ v: v.variant, f })));
  if (alarms.length) {
    lines.push('', '### Variant findings', '', '| variant | requirement | level | message |', '|---|---|---|---|');
    lines.push(...alarms.map(({ v, f }) => `| ${v} | ${f.id} | ${f.level} | ${cell(f.message, 300)} |`));
  }
  lines.push(
    '',
    '## Requirements and the faults that exercise them',
    '',
    '| requirement | level | faults |',
    '|---|---|---|',
  );
  lines.push(...m.coverage.map((r) => `| ${r.id} | ${r.level} | ${r.faults.join(', ') || '**none**'} |`));
  return `${lines.join('\n')}\n`;
}

/** A compact plain-text matrix for the terminal. */
export function renderText(m: KillMatrix): string {
  const c = m.counts;
  const width = Math.max(...m.faults.map((r) => r.fault.length), ...m.variants.map((v) => v.variant.length), 10);
  const out = [
    `kill matrix: ${c.faults} faults, ${c.caught} caught, ${c.missed} missed; ${c.variants} variants, ${c.variantsPassing} pass, ` +
      `${c.falseAlarms} false alarm(s); ${c.requirementsWithoutFault} of ${c.requirements} requirements without a fault; ` +
      `${c.shouldFaultsFailingMust} SHOULD fault(s) failing a MUST; ` +
      `${(m.durationMs / 1000).toFixed(1)} s at ${m.parallelism} servers at a time`,
    ...m.faults.map(
      (r) =>
        `  fault   ${r.fault.padEnd(width)} -> ` +
        `${r.caughtBy ?? `MISSED (${r.breaks} ${r.outcome}; failing instead: ${r.failingInstead.join(', ') || 'nothing'})`}`,
    ),
    ...m.variants.map(
      (v) =>
        `  variant ${v.variant.padEnd(width)} -> ` +
        `${v.pass ? 'pass' : `FALSE ALARM ${ids(v.mustFailures)}`}${v.shouldFailures.length ? `; SHOULD warnings: ${ids(v.shouldFailures)}` : ''}`,
    ),
  ];
  const bare = m.coverage.filter((r) => r.faults.length === 0).map((r) => r.id);
  if (bare.length) out.push(`  requirements without a fault: ${bare.join(', ')}`);
  const rc = m.rootCauseFirst;
  out.push(
    `  root cause first: ${rc.first} of ${rc.faults} faults (${(rc.share * 100).toFixed(1)}%) have their target named first or leading its group; ` +
      `${rc.extraRuns} whole-catalogue runs after the faults' own (PETSTORE_RUNS=${rc.runs}, ${SHOULD_WHOLE_RUNS} against a SHOULD), ` +
      `${(rc.extraMs / 1000).toFixed(1)} s` +
      (rc.misses.length
        ? `; named first instead: ${rc.misses.map((x) => `${x.fault} -> ${x.root ?? 'nothing'}`).join(', ')}`
        : ''),
  );
  for (const r of m.faults.filter((x) => x.mustFailures?.length)) {
    out.push(
      `  WARNING ${r.fault} breaks only ${r.breaks} (SHOULD) yet fails MUST ${ids(r.mustFailures ?? [])}: a MUST check leans on a SHOULD`,
    );
  }
  return out.join('\n');
}

export async function writeKillMatrix(m: KillMatrix, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const md = join(dir, 'kill-matrix.md');
  const json = join(dir, 'kill-matrix.json');
  await writeFile(md, renderMarkdown(m));
  await writeFile(json, `${JSON.stringify(m, null, 2)}\n`);
  return [md, json];
}
