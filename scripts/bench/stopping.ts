// Stopping (step 4/4, or `--stopping` alone): Ctrl-C mid-run, from the signal to the exit, and a run
// the preflight stops (a wrong key), from the probe reaching the server to the exit. The self-tests
// (interrupt, preflight) hold these only to bounds a slow machine meets: they are promises, measured here.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BIN, SEED, STOP_AFTER, STOP_LATENCY_MS, STOP_RUNS, TARGETS } from './config.js';
import { benchServer, type BenchServer } from './network.js';
import { mark, printRows, say, sayMachine, writeReport } from './output.js';
import { cliEnv } from './process.js';
import { median, round, secs } from './stats.js';

/** The CLI as a child process against `server`, no output kept; `exit` resolves with its code and when it came. */
function spawnCli(server: BenchServer, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-stop-'));
  const child = spawn(process.execPath, [BIN, '--report-dir', join(dir, 'reports')], {
    cwd: dir,
    env: cliEnv({ PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.apiKey, ...env }),
    stdio: 'ignore',
  });
  let exited = false;
  const exit = new Promise<{ code: number | null; at: number }>((done) =>
    child.on('exit', (code) => ((exited = true), done({ code, at: performance.now() }))),
  );
  return { child, exit, exited: () => exited, cleanUp: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Ctrl-C mid-run: ms from SIGINT to the exit (130). */
async function stopOnSigint(): Promise<number> {
  const server = await benchServer(STOP_LATENCY_MS);
  const cli = spawnCli(server);
  try {
    while (server.log.length < STOP_AFTER && !cli.exited()) await sleep(10);
    const signalled = performance.now();
    cli.child.kill('SIGINT');
    const { code, at } = await cli.exit;
    if (code !== 130) throw new Error(`Ctrl-C mid-run: the CLI exited ${code}, not 130`);
    return at - signalled;
  } finally {
    cli.cleanUp();
    await server.close();
  }
}

/** A run the preflight stops (wrong key, exit 3): ms from the probe's arrival to the exit. */
async function stopAfterProbe(): Promise<number> {
  const server = await benchServer(0);
  const cli = spawnCli(server, { PETSTORE_API_KEY: 'not-the-key' });
  try {
    const { code, at } = await cli.exit;
    const probed = Math.min(...server.log.map((r) => r[0]));
    if (code !== 3 || !Number.isFinite(probed))
      throw new Error(
        `a wrong key: the CLI exited ${code} after ${server.log.length} request(s), not 3 after the probe`,
      );
    return at - probed;
  } finally {
    cli.cleanUp();
    await server.close();
  }
}

export async function stoppingFigures() {
  say(
    `  Ctrl-C mid-run (${STOP_LATENCY_MS} ms per answer, after ${STOP_AFTER} answers) and a wrong key stopped by the preflight, ${STOP_RUNS} times each`,
  );
  const sigint: number[] = [];
  const afterProbe: number[] = [];
  for (let i = 0; i < STOP_RUNS; i++) {
    sigint.push(await stopOnSigint());
    afterProbe.push(await stopAfterProbe());
    say(
      `  round ${i + 1}: exit ${round(sigint[i] as number)} ms after SIGINT; ${round(afterProbe[i] as number)} ms after the probe`,
    );
  }
  return {
    runs: STOP_RUNS,
    sigintMedianMs: round(median(sigint)),
    sigintMaxMs: round(Math.max(...sigint)),
    afterProbeMedianMs: round(median(afterProbe)),
    afterProbeMaxMs: round(Math.max(...afterProbe)),
  };
}

export function stoppingRows(f: Awaited<ReturnType<typeof stoppingFigures>>): string[][] {
  return [
    [
      `Ctrl-C mid-run: exit after SIGINT (median; slowest of ${f.runs})`,
      `${secs(f.sigintMedianMs)}; ${secs(f.sigintMaxMs)}`,
      `<= ${TARGETS.stopMs / 1000} s`,
      mark(f.sigintMaxMs <= TARGETS.stopMs),
    ],
    [
      `Wrong key: exit after the probe (median; slowest of ${f.runs})`,
      `${secs(f.afterProbeMedianMs)}; ${secs(f.afterProbeMaxMs)}`,
      `<= ${TARGETS.afterProbeMs / 1000} s`,
      mark(f.afterProbeMaxMs <= TARGETS.afterProbeMs),
    ],
  ];
}

/** `npm run bench -- --stopping`: only the stopping figures. */
export async function stoppingOnly(): Promise<void> {
  sayMachine();
  const stopping = await stoppingFigures();
  const targets = { stopMs: TARGETS.stopMs, afterProbeMs: TARGETS.afterProbeMs };
  const file = writeReport('bench-stopping.json', { loadAverage: loadavg(), seed: SEED, stopping, targets });
  printRows(
    `Pet Store conformance suite: stopping (${cpus().length} cores, load ${loadavg()[0]?.toFixed(2)})`,
    stoppingRows(stopping),
    file,
  );
}
