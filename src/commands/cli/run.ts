// The run: the checks in this process (no test runner), Ctrl-C before and during it, not-run reports.
import type { Config } from '../../config/config.js';
import type { Exchange } from '../../wire/evidence.js';
import { redact, redactMessage } from '../../wire/redact.js';
import type { RunEvent } from '../../report/events.js';
import type { StartedServer } from './start.js';
import { loadCatalogue, selectRequirements } from './args.js';

/** How long an interrupted run may take to wind down before its reports are written from what is decided. */
const INTERRUPT_GRACE_MS = 1_200;
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/** 128 + the signal's number, as shells report a process ended by it. */
export const exitCodeFor = (signal: NodeJS.Signals) => 128 + (signal === 'SIGINT' ? 2 : 15);

/**
 * Ctrl-C before the checks start (the probe, the preflight, writing the reports of a run that
 * could not start): the requests in flight are aborted, and the reports are written from what was
 * decided, marked interrupted. A second Ctrl-C quits at once. runSuite's own handler takes over
 * once the checks start.
 */
export class EarlyInterrupts {
  signal: NodeJS.Signals | undefined;
  private readonly clients = new Set<{ abort(): void }>();
  /** Once the checks run, runSuite's handler acts; this one only notes a signal it may miss. */
  private passive = false;

  constructor() {
    for (const s of SIGNALS) process.on(s, this.handle);
  }

  watch<C extends { abort(): void }>(client: C): C {
    this.clients.add(client);
    if (this.signal) client.abort();
    return client;
  }

  standBy(): void {
    this.passive = true;
  }

  private readonly handle = (signal: NodeJS.Signals): void => {
    if (this.passive) {
      this.signal ??= signal;
      return;
    }
    if (this.signal) process.exit(exitCodeFor(this.signal));
    this.signal = signal;
    console.error(
      `petstore-conformance: ${signal === 'SIGINT' ? 'interrupted' : 'terminated'}; writing what was decided (Ctrl-C again quits at once)`,
    );
    for (const c of this.clients) c.abort();
  };

  dispose(): void {
    for (const s of SIGNALS) process.off(s, this.handle);
  }
}

/**
 * How a run ended: stopped by a signal, or finished, failing or not (with a baseline, as its gate
 * says). src/commands/cli.ts turns it into the exit code.
 */
export type RunEnd = { signal: NodeJS.Signals } | { failed: boolean };

/**
 * The run: every selected check at once against the target, then the reports. Ctrl-C (SIGINT) or
 * SIGTERM stops the checks (their requests are aborted), writes the reports from what was
 * decided, marked interrupted, and ends with 130 (143 for SIGTERM); should the run not wind down
 * within the grace period, the reports are written from what is decided and the process exits. A
 * second Ctrl-C quits at once.
 */
export async function runSuite(config: Config, server?: StartedServer): Promise<RunEnd> {
  const [{ openTarget }, { ChecksRunner }, { checks }, { conformanceReporters, CheckLines, ProgressLine, RunEvents }] =
    await Promise.all([
      import('../../run/target.js'),
      import('../../run/runner.js'),
      import('../../../tests/catalogue.js'),
      import('../../report/index.js'),
    ]);
  const [reporter] = conformanceReporters(config);
  if (!reporter) throw new Error('no reporter');
  // A line per check and every failure's evidence only with --verbose; by default a progress
  // line, then the summary (one line per finding; the evidence is in the reports).
  // --reporter ndjson: stdout is the events' alone; what else the run says goes to stderr.
  const events = config.reporter === 'ndjson' ? new RunEvents(printEvent) : undefined;
  const progress = config.verbose ? new CheckLines(events ? process.stderr : process.stdout) : new ProgressLine();
  const { run, close } = await openTarget(config, events ? console.error : console.log);
  const startedAt = new Date();
  const fails = (level: string, outcome: string) =>
    (outcome === 'failed' || outcome === 'error') && (level === 'MUST' || config.strict);
  const runner = new ChecksRunner(checks, run, {
    planned: (n, selected) => {
      progress.planned(n);
      events?.started({ target: redact(run.baseUrl), seed: run.seed }, selected);
    },
    started: (c) => progress.started(c.name),
    finished: (_c, input) => {
      progress.finished(input, fails(input.requirement.level, input.outcome));
      events?.finished(input);
    },
    note: (line) => progress.note(line),
  });
  // The server under test (--start) exiting while the checks run is said at once; the reports
  // name the requests it left unanswered, known once the checks have ended.
  let running = true;
  let exitedDuringRun = false;
  server?.onExit(() => {
    if (!running) return;
    exitedDuringRun = true;
    const lines = server.lastLines().map((l) => `  ${l}`);
    progress.note(
      redactMessage(
        `petstore-conformance: the server exited with ${server.how()} during the run; its last lines:\n${lines.join('\n')}`,
      ),
    );
  });
  const serverRecord = () => {
    if (!server) return undefined;
    if (exitedDuringRun) {
      const { code = null, signal = null } = server.ended ?? {};
      server.duringRun = { code, signal, lastLines: server.lastLines(), unanswered: runner.lastUnanswered() };
    }
    return server.record();
  };
  let signal: NodeJS.Signals | undefined;
  const onSignal = (s: NodeJS.Signals): void => {
    if (signal) process.exit(exitCodeFor(signal));
    signal = s;
    console.error(
      `petstore-conformance: ${s === 'SIGINT' ? 'interrupted' : 'terminated'}; stopping the checks and writing what was decided (Ctrl-C again quits at once)`,
    );
    runner.interrupt();
    setTimeout(() => {
      progress.end();
      events?.end(
        reporter.writeRun(runner.snapshot(), { runConfig: run, startedAt, interrupted: true, server: serverRecord() }),
      );
      process.exit(exitCodeFor(s));
    }, INTERRUPT_GRACE_MS).unref();
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  try {
    const outcome = await runner.run();
    running = false;
    progress.end();
    const results = reporter.writeRun(outcome, {
      runConfig: run,
      startedAt,
      interrupted: signal !== undefined,
      server: serverRecord(),
    });
    events?.end(results);
    if (signal) return { signal };
    if (config.baseline) {
      // With a baseline, the gate decides: known deviations fail no run of the release.
      const { gateOf } = await import('../../report/verdict.js');
      return { failed: !gateOf(results).passed };
    }
    return { failed: outcome.checks.some((c) => fails(c.requirement.level, c.outcome)) };
  } finally {
    for (const s of SIGNALS) process.off(s, onSignal);
    await close();
  }
}

/**
 * No check ran: the reports still say why, each selected requirement undecided with the reason;
 * the verdict is not-tested, or inconclusive and marked interrupted after Ctrl-C.
 */
export async function reportNotRun(
  config: Config,
  reason: string,
  options: { interrupted?: boolean; evidence?: Exchange[] } = {},
): Promise<void> {
  const { conformanceReporters, ConformanceReporter, RunEvents } = await import('../../report/index.js');
  const requirements = await selectRequirements(await loadCatalogue(), config);
  for (const r of conformanceReporters(config))
    if (r instanceof ConformanceReporter) {
      const results = r.writeUnreachable(requirements, reason, options);
      // --reporter ndjson: no run started, and the one line says the verdict (not-tested, or inconclusive when interrupted).
      if (config.reporter === 'ndjson') new RunEvents(printEvent).end(results);
    }
}

/** --reporter ndjson: one event, one line on stdout. */
function printEvent(event: RunEvent): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}
