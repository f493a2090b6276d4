// The default bench's measuring steps, in the order it prints them: full runs (1), one requirement
// and the floor (1b), throughput against a plain loop (2), latency (3) and the chain; each paired
// with the same run writing a HAR where the HAR's cost is measured.
import {
  CHAIN_LATENCY_MS,
  LATENCY_MS,
  LATENCY_RUNS,
  LOOPS,
  MAX_CONCURRENCY,
  ONE,
  RUNS,
  THROUGHPUT_RUNS,
} from './config.js';
import { bundleFloor, FULL_REQUESTS, ONE_REQUESTS, runFloor } from './floor-run.js';
import type { RemotePair } from './har-cost.js';
import { runLoop } from './loop.js';
import { againstServer, longestChain, rateOf, suiteRate } from './network.js';
import { say } from './output.js';
import { check, runCli, type CliRun } from './process.js';
import { median, round } from './stats.js';

/** 1: the full default run against the bundled server, each followed by the same run writing a HAR. */
export async function fullRuns(): Promise<{ embedded: CliRun[]; embeddedHar: CliRun[] }> {
  say(
    `1/4 full default run against the bundled server, ${RUNS} times, each followed by the same run writing a HAR (--har)`,
  );
  const embedded: CliRun[] = [];
  const embeddedHar: CliRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await runCli({}, 'embedded');
    check(run, 'the embedded run');
    embedded.push(run);
    // The first one's requests are what the floor replays (every run sends the same: one seed).
    const withHar = await runCli({}, 'embedded-har', { har: true, ...(i === 0 ? { replay: FULL_REQUESTS } : {}) });
    check(withHar, 'the embedded run with --har');
    embeddedHar.push(withHar);
    const plain = `${round(run.wallMs)} ms (${run.cpuMs} ms processor), ${round(run.peakRssMb)} MB, ${run.requests} requests`;
    const har = `${round(withHar.wallMs)} ms (${withHar.cpuMs} ms), ${round(withHar.peakRssMb)} MB, ${withHar.har?.entries} entries`;
    say(`  run ${i + 1}: ${plain}; with --har ${har}`);
  }
  return { embedded, embeddedHar };
}

export interface Floor {
  fullMs: number;
  oneMs: number;
  oneRunMs: number;
  oneRequests: number;
  fullRequests: number;
}

/** 1b: one requirement, and the floor for a full run's requests and for its, each replayed from a HAR. */
export async function floorRuns(embedded: readonly CliRun[], concurrency: number): Promise<Floor> {
  const floorIs =
    "libraries loaded, the bundled server started, the run's requests replayed from its HAR, each POST on a connection of its own";
  say(
    `1b/4 one requirement (--only ${ONE}), and the floor for a full run's and for its requests (${floorIs}), ${RUNS} times each`,
  );
  const fullRequests = median(embedded.map((r) => r.requests ?? 0));
  await bundleFloor();
  check(
    await runCli({ PETSTORE_ONLY: ONE }, 'one-har', { har: true, replay: ONE_REQUESTS }),
    'the run of one requirement',
  );
  const one: CliRun[] = [];
  const floorFull: Awaited<ReturnType<typeof runFloor>>[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await runCli({ PETSTORE_ONLY: ONE }, 'one');
    check(run, 'the run of one requirement');
    one.push(run);
    floorFull.push(await runFloor(FULL_REQUESTS, concurrency));
  }
  const oneRequests = median(one.map((r) => r.requests ?? 0));
  const floorOne: Awaited<ReturnType<typeof runFloor>>[] = [];
  for (let i = 0; i < RUNS; i++) floorOne.push(await runFloor(ONE_REQUESTS, concurrency));
  const floor = {
    fullMs: round(median(floorFull.map((r) => r.wallMs))),
    oneMs: round(median(floorOne.map((r) => r.wallMs))),
    oneRunMs: round(median(one.map((r) => r.wallMs))),
    oneRequests,
    fullRequests,
  };
  say(
    `  floor ${floor.fullMs} ms for ${fullRequests} requests, ${floor.oneMs} ms for ${oneRequests}; one requirement ${floor.oneRunMs} ms`,
  );
  return floor;
}

export interface Round {
  suiteRps: number;
  suiteSpanMs: number;
  loopRps: number;
  requests: number;
  harRps: number;
}

/** One round of 2: the suite against a fresh server, the same writing a HAR, then the plain loops (none with --har alone). */
async function throughputRound(concurrency: number, harOnly: boolean): Promise<Round> {
  let harRps = NaN;
  const { server, rate: suite } = await suiteRate(false);
  let loopRps = NaN;
  try {
    // Next to each other, so that drift on the machine hits both alike; then the loops.
    const withHar = await suiteRate(true);
    await withHar.server.close();
    harRps = withHar.rate.rps;
    const loops: { rps: number }[] = [];
    for (let j = 0; !harOnly && j < LOOPS; j++) loops.push(await runLoop(server, suite.requests, concurrency));
    loopRps = median(loops.map((l) => l.rps));
  } finally {
    await server.close();
  }
  return { suiteRps: suite.rps, suiteSpanMs: suite.spanMs, loopRps, requests: suite.requests, harRps };
}

/** 2: request throughput against a reference server, beside a plain undici loop and with --har. */
export async function throughputRounds(concurrency: number, harOnly: boolean): Promise<Round[]> {
  const beside = harOnly
    ? 'with and without --har'
    : `and a plain undici loop against it (median of ${LOOPS}); then with --har`;
  say(`2/4 request throughput against a reference server, ${beside}, ${THROUGHPUT_RUNS} times`);
  const rounds: Round[] = [];
  for (let i = 0; i < THROUGHPUT_RUNS; i++) {
    const r = await throughputRound(concurrency, harOnly);
    rounds.push(r);
    const loop = harOnly ? '' : `, loop ${round(r.loopRps)} req/s, ratio ${round(r.suiteRps / r.loopRps, 2)}`;
    const suite = `suite ${round(r.suiteRps)} req/s (${r.requests} in ${round(r.suiteSpanMs)} ms)`;
    say(`  round ${i + 1}: ${suite}${loop}; with --har ${round(r.harRps)} req/s`);
  }
  return rounds;
}

const msPerRequest = (log: [number, number][]) => rateOf(log).spanMs / log.length;

/** 3: against the reference server with LATENCY_MS on every answer, each run followed by the same writing a HAR. */
export async function latencyRuns(
  harOnly: boolean,
): Promise<{ latency: { wallMs: number; requests: number }[]; remote: RemotePair[] }> {
  const chain = harOnly
    ? ''
    : `; then the longest dependent chain (${CHAIN_LATENCY_MS} ms, ${MAX_CONCURRENCY} in flight)`;
  const each = `${LATENCY_RUNS} times, each followed by the same run writing a HAR`;
  say(`3/4 against the reference server with ${LATENCY_MS} ms on every answer, ${each}${chain}`);
  const latency: { wallMs: number; requests: number }[] = [];
  const remote: RemotePair[] = [];
  for (let i = 0; i < LATENCY_RUNS; i++) {
    const { run, log } = await againstServer(LATENCY_MS);
    latency.push({ wallMs: run.wallMs, requests: run.requests ?? log.length });
    const withHar = await againstServer(LATENCY_MS, {}, true);
    remote.push({ msPerRequest: msPerRequest(log), msPerRequestHar: msPerRequest(withHar.log) });
    const plain = `${round(run.wallMs)} ms, ${run.requests} requests, ${msPerRequest(log).toFixed(2)} ms per request`;
    const har = `${round(withHar.run.wallMs)} ms, ${msPerRequest(withHar.log).toFixed(2)} ms per request`;
    say(`  run ${i + 1}: ${plain}; with --har ${har}`);
  }
  return { latency, remote };
}

/** The chain: one more run at CHAIN_LATENCY_MS with every request allowed in flight, so only a dependency makes one wait. */
export async function chainRun(): Promise<number> {
  const { log } = await againstServer(CHAIN_LATENCY_MS, { PETSTORE_CONCURRENCY: String(MAX_CONCURRENCY) });
  const chain = longestChain(log);
  say(`  chain: ${chain} requests`);
  return chain;
}
