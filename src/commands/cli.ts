// The command line's entry: main, which runs each step in order, and the exit codes it returns.
// Order: parse flags (exit 2), validate configuration (exit 2), probe the target and send one
// authenticated preflight request (exit 3, reports "not tested"), then run the checks in this
// process, no test runner (exit 0 or 1). The steps live in src/commands/cli/: args.ts, help.ts,
// preflight.ts, run.ts.
import { resolve } from 'node:path';
import { ConfigError, loadConfig, SETTINGS } from '../config/config.js';
import { redactMessage, registerSecret } from '../wire/redact.js';
import {
  applyFlags,
  checkSelection,
  loadCatalogue,
  parseCommandLine,
  selectRequirements,
  sources,
  UsageError,
} from './cli/args.js';
import { catalogueListing, helpText, INTERFACE_VERSION, showConfig, SUITE_VERSION } from './cli/help.js';
import { preflight } from './cli/preflight.js';
import { EarlyInterrupts, exitCodeFor, reportNotRun, runSuite } from './cli/run.js';
import type { StartedServer } from './cli/start.js';
// The client, the catalogue and the reporters are imported when needed, so that --help,
// --version and bad usage answer at once.

export const EXIT = { conformant: 0, violations: 1, usage: 2, unreachable: 3, interrupted: 130 } as const;

/** The whole command: returns the exit code. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const say = (line: string) => console.error(`petstore-conformance: ${line}`);
  try {
    const inv = parseCommandLine(argv);
    if (inv.command === 'diff') return await (await import('./diff.js')).diffCommand(inv.args ?? [], env);
    if (inv.command === 'replay') return await (await import('./replay.js')).replayCommand(inv.args ?? [], env);
    if (inv.command === 'export') return (await import('./export.js')).exportCommand(inv.args ?? []);
    if (inv.command === 'matrix') return await (await import('./matrix/command.js')).matrixCommand(inv.args ?? []);
    if (inv.command === 'sign' || inv.command === 'verify')
      return (await import('./sign.js')).signatureCommand(inv.command, inv.args ?? []);
    if (inv.command === 'certify')
      return await (await import('./certify.js')).certifyCommand(inv.args ?? [], env, main);
    if (inv.command === 'verify-submission')
      return (await import('./verify-submission.js')).verifySubmissionCommand(inv.args ?? []);
    if (inv.command === 'help') {
      console.log(helpText());
      return EXIT.conformant;
    }
    if (inv.command === 'version') {
      console.log(
        `petstore-conformance ${SUITE_VERSION} (Pet Store Service Interface ${INTERFACE_VERSION}; Node.js ${process.version})`,
      );
      return EXIT.conformant;
    }
    applyFlags(inv, env);
    const config = loadConfig(env);
    const source = sources(inv, env);
    await checkSelection(config, source);
    if (inv.command === 'show-config') {
      console.log(showConfig(config, source));
      return EXIT.conformant;
    }
    if (inv.command === 'list') {
      console.log(catalogueListing(await selectRequirements(await loadCatalogue(), config)));
      return EXIT.conformant;
    }
    if (config.baseline) {
      // Validated before anything is sent: a bad file or an id that names nothing is one line, exit 2.
      const { loadBaseline } = await import('../report/baseline.js');
      loadBaseline(config.baseline, { ids: (await loadCatalogue()).map((r) => r.id), now: config.now ?? new Date() });
    }
    if (config.start && !config.baseUrl)
      throw new ConfigError(
        SETTINGS.start.env,
        `needs ${SETTINGS.baseUrl.env}: the address the server it starts listens on`,
      );
    const interrupts = new EarlyInterrupts();
    let server: StartedServer | undefined;
    // Before anything prints it: the started server's output, the probe, the reports.
    if (config.apiKey) registerSecret(config.apiKey);
    // Reports are written synchronously: a signal that came meanwhile is read when the event loop
    // next polls, so the check phase after it is the second one from here.
    const nextTurn = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    const write = (reason: string, options: Parameters<typeof reportNotRun>[2]) =>
      reportNotRun(config, reason, options).catch((err: unknown) =>
        say(`the reports could not be written: ${err instanceof Error ? err.message : String(err)}`),
      );
    try {
      if (config.start && config.baseUrl) {
        const { StartedServer, StartError } = await import('./cli/start.js');
        try {
          server = await StartedServer.start(config.start, {
            baseUrl: config.baseUrl,
            timeoutMs: config.startTimeoutMs,
            reportDir: resolve(config.reportDir),
            env,
            interrupted: () => interrupts.signal !== undefined,
          });
        } catch (err) {
          if (!(err instanceof StartError)) throw err;
          say(redactMessage(err.message));
          await write(err.message, interrupts.signal ? { interrupted: true } : {});
          return interrupts.signal ? exitCodeFor(interrupts.signal) : EXIT.unreachable;
        }
      }
      if (config.baseUrl) {
        // Needed by the run and by the reports of a run that cannot start: loaded while the probe waits.
        const reporting = import('../report/index.js');
        reporting.catch(() => {}); // a failure to load surfaces where it is awaited
        const diagnosis = await preflight(
          { ...config, baseUrl: config.baseUrl },
          inv.apiKeyEnv ?? SETTINGS.apiKey.env,
          interrupts,
          (line) => say(`warning: ${redactMessage(line)}`),
        );
        if (interrupts.signal) {
          await write(
            'the run was interrupted before the checks started (during the reachability probe or the preflight)',
            { interrupted: true },
          );
          return exitCodeFor(interrupts.signal);
        }
        if (diagnosis) {
          say(redactMessage(diagnosis.reason));
          await write(diagnosis.reason, { evidence: diagnosis.evidence });
          await nextTurn();
          // Ctrl-C while the reports were written: they are whole; the exit says it was interrupted.
          return interrupts.signal ? exitCodeFor(interrupts.signal) : EXIT.unreachable;
        }
      }
      interrupts.standBy();
      const end = await runSuite(config, server);
      await nextTurn();
      if (interrupts.signal) return exitCodeFor(interrupts.signal);
      if ('signal' in end) return exitCodeFor(end.signal);
      return end.failed ? EXIT.violations : EXIT.conformant;
    } finally {
      await server?.stop();
      interrupts.dispose();
    }
  } catch (err) {
    if (err instanceof UsageError) {
      say(err.message);
      return EXIT.usage;
    }
    if (err instanceof ConfigError) {
      say(`configuration error: ${err.message}`);
      return EXIT.usage;
    }
    if (err instanceof Error && (err.name === 'BaselineError' || err.name === 'DiffError')) {
      say(err.message);
      return EXIT.usage;
    }
    throw err;
  }
}
