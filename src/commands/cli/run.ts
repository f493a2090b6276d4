// The run: vitest's conformance project in-process, Ctrl-C before and during it, not-run reports.
import { fileURLToPath } from 'node:url';
import type { Reporter, Vitest } from 'vitest/node';
import type { Config } from '../../config/config.js';
import type { Exchange } from '../../wire/evidence.js';
import { loadCatalogue, selectRequirements } from './args.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

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
 * Ctrl-C (SIGINT) or SIGTERM during a run: stop the checks (running ones have their requests
 * aborted, pending ones do not start), write the reports from what was decided, marked
 * interrupted, and exit 130 (143 for SIGTERM). Vitest's own handler would exit at once with no
 * report, so it is taken off for the run. Should the run not wind down within the grace period,
 * the reports are written from what is decided and the process exits; a second Ctrl-C quits at once.
 */
class Interrupts implements Reporter {
  signal: NodeJS.Signals | undefined;
  private vitest: Vitest | undefined;
  private readonly before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));

  constructor(private readonly writeNow: () => void) {
    for (const s of SIGNALS) process.on(s, this.handle);
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    for (const s of SIGNALS)
      for (const l of process.listeners(s)) if (l !== this.handle && !this.before.get(s)?.has(l)) process.off(s, l);
    if (this.signal) void vitest.cancelCurrentRun('keyboard-input'); // the signal came while vitest was starting
  }

  private readonly handle = (signal: NodeJS.Signals): void => {
    if (this.signal) process.exit(exitCodeFor(this.signal));
    this.signal = signal;
    console.error(
      `petstore-conformance: ${signal === 'SIGINT' ? 'interrupted' : 'terminated'}; stopping the checks and writing what was decided (Ctrl-C again quits at once)`,
    );
    void this.vitest?.cancelCurrentRun('keyboard-input');
    setTimeout(() => {
      this.writeNow();
      process.exit(exitCodeFor(signal));
    }, INTERRUPT_GRACE_MS).unref();
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

export async function runSuite(config: Config): Promise<RunEnd> {
  const { startVitest } = await import('vitest/node');
  const { conformanceReporters, ConformanceReporter, ProgressReporter } = await import('../../report/index.js');
  const reporters = conformanceReporters(config);
  // vitest's line per check and every failure's evidence only with --verbose; by default a
  // progress line, then the summary (one line per finding; the evidence is in the reports).
  const progress = config.verbose ? 'default' : new ProgressReporter();
  const interrupts = new Interrupts(() =>
    reporters.forEach((r) => r instanceof ConformanceReporter && r.writeInterrupted()),
  );
  // Unset, not 0: should a signal slip past the handlers above, vitest's own sets 130.
  process.exitCode = undefined;
  try {
    const vitest = await startVitest('test', [], {
      root,
      project: ['conformance'],
      watch: false,
      run: true,
      reporters: [progress, ...reporters, interrupts],
    });
    await vitest.close();
    if (interrupts.signal) return { signal: interrupts.signal };
    if (config.baseline) {
      // With a baseline, the gate decides: known deviations fail no test of the release.
      const { gateOf } = await import('../../report/verdict.js');
      const results = reporters.find(
        (r): r is InstanceType<typeof ConformanceReporter> => r instanceof ConformanceReporter,
      )?.results;
      if (results) return { failed: !gateOf(results).passed };
    }
    const failed =
      (process.exitCode !== undefined && process.exitCode !== 0) || vitest.state.getCountOfFailedTests() > 0;
    return { failed };
  } finally {
    interrupts.dispose();
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
  const { conformanceReporters, ConformanceReporter } = await import('../../report/index.js');
  const requirements = await selectRequirements(await loadCatalogue(), config);
  for (const r of conformanceReporters(config))
    if (r instanceof ConformanceReporter) r.writeUnreachable(requirements, reason, options);
}
