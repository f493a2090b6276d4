// `npm run bench`: how fast the suite runs and what it costs, on this machine. A measurement,
// not a test: it prints a table, writes reports/bench.json, and exits 0 whatever it finds.
// The parts are in scripts/bench/, one concern each; this composes them.
//
// 1. Full default run against the bundled server, RUNS times: the real CLI as a child process
//    (node start-up and reports included). Wall time from spawn to exit; peak RSS
//    and processor time of the whole process tree, sampled from /proc every few ms; requests
//    sent, as the run itself counted them (conformance.json, run.requests). (bench/process.ts)
// 1b. One requirement (--only), and the floor: the same requests replayed with nothing but the
//    libraries and the server, for a full run and for one requirement. (bench/floor.ts, floor-run.ts)
// 2. The limit: the same suite against a reference server this script serves (fresh store), its
//    request rate taken by the server from the first request after the CLI's probe and preflight
//    to the last answer; then, against that same server, a plain undici loop (a child process)
//    sending as many requests (GET /pets, keep-alive) with the same concurrency, LOOPS times
//    (its median). The median over the rounds of the ratio of the two rates is the suite's
//    throughput as a share of what the client library can do. (bench/network.ts, loop.ts)
// 3. Latency: the suite against the reference server with LATENCY_MS added to every response,
//    beside its lower bound: the larger of (longest dependent chain x LATENCY_MS) and
//    (requests x LATENCY_MS / concurrency). The chain is measured on one more run with
//    CHAIN_LATENCY_MS and every request allowed in flight at once: request B depends on A when
//    B arrived after A's answer left, and the longest such sequence (a longest path over the
//    server's arrival and departure times) is the chain. With nothing queued, only a dependency
//    makes a request wait for another's answer.
//
// 3b. Staging far away (issue 42): the suite against a reference server in the bench's process,
//    on loopback, over HTTPS (a certificate made with openssl), and through a proxy delaying every
//    chunk NETWORK_RTT_MS / 2 each way whose new connections pay their handshakes (TCP; TCP + TLS);
//    each beside its floor, the run's requests replayed from its HAR on `concurrency` kept-alive
//    connections through the same path, and the connections each opened. (bench/far.ts, delay-proxy.ts)
//
// 4. --har: runs 1, 2 and 3 are each paired with the same run writing a HAR (--har FILE), in turn,
//    so drift on the machine hits both alike; the cost of the HAR is the median of the pairs'
//    ratios. Its goal (issue 28) is set for remote staging: the time per request (the server's
//    span over the requests) with LATENCY_MS on every answer. With no latency, where the run is
//    bound by the processor, the wall time, processor time and request rate show the most it can
//    cost. Its entries are counted against run.requests. (bench/har-cost.ts)
//
// 5. Stopping (step 4/4 as it prints): Ctrl-C mid-run (the CLI against a server holding every
//    answer STOP_LATENCY_MS, SIGINT once STOP_AFTER requests were answered), from the signal to
//    the exit; and a run the preflight stops (a wrong key), from the probe reaching the server to
//    the exit. STOP_RUNS each, the median and the slowest. The self-tests (interrupt, preflight)
//    hold these only to bounds a slow machine meets: they are promises, measured here. (bench/stopping.ts)
//
// `npm run bench -- --cost-model` instead measures how a run's time grows with PETSTORE_RUNS,
// latency and concurrency (see docs/performance.md); `npm run bench -- --har` measures only the
// cost of the HAR (steps 1 to 3 with and without it; no plain loop, no chain, no stopping);
// `npm run bench -- --stopping` only the stopping figures (5.).
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { loadConfig } from '../src/config/config.js';
import { BIN, ROOT, SEED, TARGETS } from './bench/config.js';
import { costModel } from './bench/cost-model.js';
import { writeDocsTable } from './bench/docs-table.js';
import { harFigures, harRows } from './bench/har-cost.js';
import { loopMain } from './bench/loop.js';
import { printRows, say, sayMachine, writeReport } from './bench/output.js';
import { round } from './bench/stats.js';
import { farFigures, farRows, farRuns } from './bench/far.js';
import { chainRun, floorRuns, fullRuns, latencyRuns, throughputRounds } from './bench/steps.js';
import { stoppingFigures, stoppingOnly } from './bench/stopping.js';
import { benchRows, figuresOf, metOf } from './bench/summary.js';

async function bench(harOnly = false): Promise<void> {
  // The default: the runs get a clean PETSTORE_* environment.
  const concurrency = loadConfig({}, { dotenv: false }).concurrency;
  const load = loadavg();
  sayMachine(load, ' (other processes skew every figure)');

  // A clone bundles its sources on the first run after they change (scripts/bundle.mjs): done here,
  // before any measurement, as a developer running the suite again and again has it done.
  execFileSync(process.execPath, [BIN, '--version'], { cwd: ROOT, stdio: 'ignore' });

  const { embedded, embeddedHar } = await fullRuns();
  const floor = await floorRuns(embedded, concurrency);
  const rounds = await throughputRounds(concurrency, harOnly);
  const { latency, remote } = await latencyRuns(harOnly);
  const har = harFigures(embedded, embeddedHar, rounds, remote);
  if (harOnly) {
    const file = writeReport('bench-har.json', {
      loadAverage: load.map((l) => round(l, 2)),
      seed: SEED,
      har,
      target: TARGETS.harOverhead,
    });
    printRows(
      `Pet Store conformance suite: cost of --har (${cpus().length} cores, load ${load[0]?.toFixed(2)}, seed ${SEED})`,
      harRows(har),
      file,
    );
    return;
  }
  const chain = await chainRun();
  const far = await farRuns(concurrency, '3b/4 ');
  say('4/4 stopping');
  const stopping = await stoppingFigures();

  const measured = { concurrency, load, embedded, floor, rounds, har, latency, chain, stopping, far };
  const figures = figuresOf(measured);
  const met = metOf(figures);
  const file = writeReport('bench.json', { ...figures, targets: TARGETS, met });
  const rows = benchRows(measured, figures, met);
  const title = `Pet Store conformance suite: bench (${cpus().length} cores, load ${load[0]?.toFixed(2)}, seed ${SEED}, concurrency ${concurrency})`;
  printRows(title, rows, file);
  writeDocsTable(title, rows);
}

/** `--network`: only the far-away paths (3b), written to reports/bench-network.json. */
async function networkOnly(): Promise<void> {
  const load = loadavg();
  sayMachine(load, '');
  const far = await farRuns(loadConfig({}, { dotenv: false }).concurrency);
  const file = writeReport('bench-network.json', {
    loadAverage: load.map((l) => round(l, 2)),
    seed: SEED,
    far: farFigures(far),
  });
  printRows(
    `Pet Store conformance suite: staging far away (${cpus().length} cores, load ${load[0]?.toFixed(2)})`,
    farRows(far),
    file,
  );
}

const args = process.argv.slice(2);
if (args[0] === '--loop') await loopMain(args[1] as string, args[2] as string, Number(args[3]), Number(args[4]));
else if (args[0] === '--cost-model') await costModel();
else if (args[0] === '--stopping') await stoppingOnly();
else if (args[0] === '--network') await networkOnly();
else await bench(args[0] === '--har');
