// The reports of a run: from its checks' outcomes (src/run/runner.ts), the one results tree,
// every report file written from it, and the terminal summary.
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Config, RunConfig } from '../config/config.js';
import { packageRootPath } from '../config/package-root.js';
import { redact, redactMessage, registerSecret } from '../wire/redact.js';
import { renderBadgeJson, renderBadgeSvg } from './badge.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { buildManifest, digestFile, suiteCommitAhead, type SuiteCommit } from './manifest.js';
import { renderMarkdown } from './markdown.js';
import { sealHar, writeEmptyHar } from '../wire/har.js';
import { loadBaseline, type Baseline } from './baseline.js';
import {
  buildResults,
  LEDGER_FILE,
  type CheckInput,
  type Results,
  type RunInput,
  type RunRetries,
  type RunServer,
  type SuiteScore,
  type TargetLost,
  type TargetPoisoned,
  type DeploymentFinding,
  type RunCoverage,
  type RunSoak,
  type RunNetwork,
} from './results.js';
import { COLORS, PLAIN, renderTerminal } from './terminal.js';
import { reportView, type ReportView } from './view.js';
import { renderLedger } from './ledger.js';

export { renderLedger } from './ledger.js';

export const REPORT_FILES = [
  'conformance.json',
  'junit.xml',
  'conformance.md',
  'conformance.html',
  LEDGER_FILE,
  'badge.svg',
  'badge.json',
] as const;
export const MANIFEST_FILE = 'manifest.json';

export interface ReporterOptions {
  /** $GITHUB_STEP_SUMMARY: conformance.md is appended to this file when set. */
  stepSummary?: string | undefined;
  /** Colour the terminal summary. */
  color?: boolean;
  /** Write the report files (default); runConformance without a reportDir only builds the tree. */
  write?: boolean;
  /** Print the terminal summary of a run whose checks ran (default). */
  print?: boolean;
}

/**
 * Every report file of a run, from its view (reportView, computed once: the terminal summary
 * shares it). Nothing is redacted here: what came from the wire or the
 * configuration was redacted where it entered the tree (evidence, messages, the target), and the
 * suite's own words must reach the page as written (see src/wire/redact.ts).
 */
export function renderReports(
  results: Results,
  ledger: readonly string[],
  { har, view = reportView(results) }: { har?: string; view?: ReportView } = {},
): { file: string; content: string }[] {
  const contents: Record<(typeof REPORT_FILES)[number], string> = {
    'conformance.json': `${JSON.stringify(results, null, 2)}\n`,
    'junit.xml': renderJunit(results),
    'conformance.md': renderMarkdown(view),
    'conformance.html': renderHtml(view, har === undefined ? {} : { har }),
    [LEDGER_FILE]: renderLedger(results, ledger),
    'badge.svg': renderBadgeSvg(results),
    'badge.json': renderBadgeJson(results),
  };
  return REPORT_FILES.map((file) => ({ file, content: contents[file] }));
}

function writeAtomic(path: string, content: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

/** What the suite itself can see (suite-score.json, written by its kill matrix), when the package has it. */
function suiteScore(): { score: SuiteScore } | Record<string, never> {
  try {
    return { score: JSON.parse(readFileSync(join(packageRootPath, 'suite-score.json'), 'utf8')) as SuiteScore };
  } catch {
    return {};
  }
}

function packageInfo(): { name: string; version: string } {
  try {
    const pkg = JSON.parse(readFileSync(join(packageRootPath, 'package.json'), 'utf8')) as {
      name?: string;
      version?: string;
    };
    return { name: pkg.name ?? 'petstore-conformance', version: pkg.version ?? '0.0.0' };
  } catch {
    return { name: 'petstore-conformance', version: '0.0.0' };
  }
}

/** What the checks of a run left for its reports (src/run/runner.ts). */
export interface ChecksOutcome {
  checks: CheckInput[];
  /** Ids (exact digits) of the pets the run created. */
  created: string[];
  runTag: string | null;
  requests: number | null;
  retries: RunRetries | null;
  /** The target stopped answering during the run (see TargetWatch). */
  targetLost?: TargetLost | null;
  /** The suite's own input broke the target (see TargetWatch). */
  targetPoisoned?: TargetPoisoned | null;
  /** What a gateway in front answered itself. */
  deployment?: DeploymentFinding[];
  /** The Server header of the target's first successful answer. */
  targetServer?: string;
  /** What the run covered (see src/run/coverage.ts). */
  coverage?: RunCoverage;
  /** --soak's rounds (see src/run/soak.ts). */
  soak?: RunSoak;
  /** The protocol, the connections opened, the latency per operation. */
  network?: RunNetwork;
}

/** What finish builds the tree from: the checks' outcome (bar the checks) and the run around it. */
type Finishing = Omit<ChecksOutcome, 'checks'> & {
  errors: string[];
  runConfig?: RunConfig | undefined;
  startedAt: Date;
  interrupted: boolean;
  print: boolean;
  diagnosis?: string;
  server?: RunServer | undefined;
};

/** Writes every report file of a run from its checks' outcomes, and prints the terminal summary. */
export class ConformanceReporter {
  /** The tree of the last run, for callers (the CLI) that want the verdict. */
  results?: Results;

  constructor(
    private readonly config: Config,
    private readonly options: ReporterOptions = {},
  ) {
    if (config.apiKey) registerSecret(config.apiKey);
  }

  /** The suite's commit, asked of git while the checks run. */
  private readonly commit = suiteCommitAhead(packageRootPath);

  /**
   * A run whose checks ran (all, or until it was interrupted): writes the reports and prints the
   * summary. An interrupted run's reports are written once, by whichever comes first (the run's
   * end or the grace timeout).
   */
  writeRun(
    outcome: ChecksOutcome,
    {
      runConfig,
      startedAt,
      interrupted = false,
      server,
    }: { runConfig: RunConfig; startedAt: Date; interrupted?: boolean; server?: RunServer | undefined },
  ): Results {
    if (this.results?.run.interrupted) return this.results;
    // A run stopped at its grace period may still be writing its HAR: the reports name a whole copy.
    const har = this.config.har ? resolve(this.config.har) : undefined;
    if (interrupted && har && existsSync(har)) sealHar(har);
    return this.finish(outcome.checks, {
      ...outcome,
      errors: [],
      runConfig,
      startedAt,
      interrupted,
      print: this.options.print ?? true,
      server,
    });
  }

  /**
   * No check ran: the CLI's probe or preflight found the target could not be tested (verdict
   * not-tested, the reason as its diagnosis, with the exchange that showed it), or the run was
   * interrupted before the checks started. Every selected requirement is reported undecided, with
   * the reason. Prints nothing (the CLI says it in one line).
   */
  writeUnreachable(
    requirements: readonly CheckInput['requirement'][],
    reason: string,
    { interrupted = false, evidence = [] }: { interrupted?: boolean; evidence?: CheckInput['evidence'] } = {},
  ): Results {
    reason = redactMessage(reason); // its quotes of the URL and the wire are marked with quoted()
    // No check ran, so no request is recorded (the probe and preflight are not the checks' requests).
    if (this.config.har)
      writeEmptyHar(resolve(this.config.har), {
        title: `petstore-conformance against ${redact(this.config.baseUrl ?? 'the bundled reference server')}`,
        note: `No check ran: ${reason}`,
      });
    const checks = requirements.map(({ id, level, section, statement }): CheckInput => ({
      requirement: { id, level, section, statement },
      name: `${id} ${statement}`,
      kind: 'requirement',
      outcome: 'error',
      message: interrupted ? `not decided: ${reason}` : `not tested: ${reason}`,
      evidence,
      durationMs: 0,
    }));
    return this.finish(checks, {
      created: [],
      errors: [],
      runTag: null,
      requests: null,
      retries: null,
      startedAt: new Date(),
      interrupted,
      print: false,
      ...(interrupted ? {} : { diagnosis: reason }),
    });
  }

  /** Builds the results tree, writes every report file and (when `print`) the terminal summary. */
  private finish(checks: readonly CheckInput[], finishing: Finishing): Results {
    const finishedAt = new Date();
    if (finishing.runConfig?.apiKey) registerSecret(finishing.runConfig.apiKey);
    const commit = this.commit();
    const results = buildResults(checks, this.runInput(finishing, commit.commit, finishedAt));
    this.results = results;
    if (this.options.write === false) return results;
    const view = reportView(results);
    this.writeFiles(results, finishing.created, view, commit);
    if (finishing.print) this.printSummary(view);
    return results;
  }

  /** The run around the checks, as the results tree records it. */
  private runInput(f: Finishing, commit: string | null, finishedAt: Date): RunInput {
    const { runConfig } = f;
    let { errors } = f;
    // The CLI validated it before the run (exit 2 when bad); read again here, as it stands now.
    let baseline: Baseline | null = null;
    if (this.config.baseline) {
      try {
        baseline = loadBaseline(this.config.baseline, {
          now: runConfig?.now ? new Date(runConfig.now) : (this.config.now ?? new Date()),
        });
      } catch (err) {
        errors = [...errors, err instanceof Error ? err.message : String(err)];
      }
    }
    return {
      suite: { ...packageInfo(), commit, ...suiteScore() },
      target: {
        baseUrl: redact(runConfig?.baseUrl ?? this.config.baseUrl ?? '(bundled reference server, not started)'),
        embedded: runConfig?.embedded ?? this.config.baseUrl === undefined,
        ...(this.config.label ? { label: redact(this.config.label) } : {}),
        ...(f.targetServer ? { server: redact(f.targetServer) } : {}),
      },
      startedAt: f.startedAt,
      finishedAt,
      seed: runConfig?.seed ?? this.config.seed ?? null,
      node: process.version,
      strict: this.config.strict,
      readOnly: this.config.readOnly,
      clock: runConfig?.now ?? null,
      only: this.config.only,
      skip: this.config.skip,
      interrupted: f.interrupted,
      errors: errors.map(redact),
      createdPets: f.created,
      runTag: f.runTag,
      requests: f.requests,
      retries: f.retries,
      diagnosis: f.diagnosis ?? null,
      baseline: baseline && this.config.baselineStrict ? { ...baseline, strict: true } : baseline,
      requirementSet: this.config.requirementSet,
      server: f.server ?? null,
      targetLost: f.targetLost ?? null,
      targetPoisoned: f.targetPoisoned ?? null,
      deployment: f.deployment ?? [],
      ...(f.coverage ? { coverage: f.coverage } : {}),
      ...(f.soak ? { soak: f.soak } : {}),
      ...(f.network ? { network: f.network } : {}),
    };
  }

  /** Every report file and the manifest over them (and the HAR the checks streamed), each written whole. */
  private writeFiles(results: Results, created: readonly string[], view: ReportView, commit: SuiteCommit): void {
    const dir = resolve(this.config.reportDir);
    mkdirSync(dir, { recursive: true });
    // The HAR was streamed by the checks' worker, which closed it when they ended; its path as seen from the reports.
    const har = this.config.har ? resolve(this.config.har) : undefined;
    const harFile = har && relative(dir, har).split(sep).join('/');
    const files = renderReports(results, created, { view, ...(harFile ? { har: harFile } : {}) });
    for (const { file, content } of files) writeAtomic(join(dir, file), content);
    const digested = har && harFile && existsSync(har) ? [{ file: harFile, ...digestFile(har) }] : [];
    const manifest = `${JSON.stringify(buildManifest(results, packageRootPath, files, commit, digested), null, 2)}\n`;
    writeAtomic(join(dir, MANIFEST_FILE), manifest);
    if (this.options.stepSummary)
      appendFileSync(this.options.stepSummary, `${files.find((f) => f.file === 'conformance.md')?.content ?? ''}\n`);
  }

  private printSummary(view: ReportView): void {
    const dir = resolve(this.config.reportDir);
    const shownDir = relative(process.cwd(), dir) || '.';
    const text = renderTerminal(view, {
      paint: this.options.color ? COLORS : PLAIN,
      width: process.stdout.columns || 120,
      reportDir: shownDir.startsWith('..') ? dir : shownDir,
    });
    process.stdout.write(`${text}\n`);
  }
}
