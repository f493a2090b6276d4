// The default bench's figures from what its steps measured, each set against its target (written
// to reports/bench.json), and its table's rows.
import { cpus } from 'node:os';
import { LATENCY_MS, LATENCY_RUNS, ONE, RUNS, SEED, THROUGHPUT_RUNS, TARGETS } from './config.js';
import { farFigures, farRows, type Far } from './far.js';
import { harRows, type harFigures } from './har-cost.js';
import { mark } from './output.js';
import type { CliRun } from './process.js';
import { median, round, secs } from './stats.js';
import type { Floor, Round } from './steps.js';
import { stoppingRows, type stoppingFigures } from './stopping.js';

export interface Measured {
  concurrency: number;
  load: number[];
  embedded: CliRun[];
  floor: Floor;
  rounds: Round[];
  har: ReturnType<typeof harFigures>;
  latency: { wallMs: number; requests: number }[];
  chain: number;
  stopping: Awaited<ReturnType<typeof stoppingFigures>>;
  far: Far[];
}

/** The latency run's lower bound: the larger of the chain's and the pool's. */
function lowerBound({ latency, chain, concurrency }: Measured) {
  const requests = median(latency.map((r) => r.requests));
  const byChain = chain * LATENCY_MS;
  const byPool = (requests * LATENCY_MS) / concurrency;
  return { requests, byChain, byPool, bound: Math.max(byChain, byPool) };
}

export function figuresOf(m: Measured) {
  const { embedded, rounds, latency } = m;
  const requests = median(embedded.map((r) => r.requests ?? 0));
  const { requests: latencyRequests, byChain, byPool, bound } = lowerBound(m);
  return {
    machine: { cores: cpus().length, loadAverage: m.load.map((l) => round(l, 2)), node: process.version },
    seed: SEED,
    concurrency: m.concurrency,
    embedded: {
      runs: RUNS,
      medianWallMs: round(median(embedded.map((r) => r.wallMs))),
      medianPeakRssMb: round(median(embedded.map((r) => r.peakRssMb))),
      maxPeakRssMb: round(Math.max(...embedded.map((r) => r.peakRssMb))),
      requests,
      requestsPerSecond: round((requests / median(embedded.map((r) => r.wallMs))) * 1000),
      wallMs: embedded.map((r) => round(r.wallMs)),
      peakRssMb: embedded.map((r) => round(r.peakRssMb)),
    },
    throughput: {
      rounds: THROUGHPUT_RUNS,
      medianSuiteRps: round(median(rounds.map((r) => r.suiteRps))),
      medianLoopRps: round(median(rounds.map((r) => r.loopRps))),
      medianRatio: round(median(rounds.map((r) => r.suiteRps / r.loopRps)), 3),
      each: rounds.map((r) => ({
        suiteRps: round(r.suiteRps),
        suiteSpanMs: round(r.suiteSpanMs),
        loopRps: round(r.loopRps),
        requests: r.requests,
      })),
    },
    har: m.har,
    latency: {
      latencyMs: LATENCY_MS,
      runs: LATENCY_RUNS,
      medianWallMs: round(median(latency.map((r) => r.wallMs))),
      wallMs: latency.map((r) => round(r.wallMs)),
      requests: latencyRequests,
      longestChain: m.chain,
      boundByChainMs: byChain,
      boundByConcurrencyMs: round(byPool),
      lowerBoundMs: round(bound),
      factor: round(median(latency.map((r) => r.wallMs)) / bound, 2),
    },
    stopping: m.stopping,
    far: farFigures(m.far),
    floor: {
      ...m.floor,
      fullRatio: round(median(embedded.map((r) => r.wallMs)) / m.floor.fullMs, 2),
      oneRatio: round(m.floor.oneRunMs / m.floor.oneMs, 2),
    },
  };
}

type Figures = ReturnType<typeof figuresOf>;

export function metOf(f: Figures) {
  return {
    fullVsFloor: f.floor.fullRatio <= TARGETS.fullVsFloor,
    oneVsFloor: f.floor.oneRatio <= TARGETS.oneVsFloor,
    wall: f.embedded.medianWallMs <= TARGETS.wallMs,
    requests: f.embedded.requests >= TARGETS.requests,
    throughput: f.throughput.medianRatio >= TARGETS.throughputRatio,
    latency: f.latency.factor <= TARGETS.latencyFactor,
    rss: f.embedded.maxPeakRssMb <= TARGETS.peakRssMb,
    har: f.har.remote.overhead <= TARGETS.harOverhead,
    stop: f.stopping.sigintMaxMs <= TARGETS.stopMs,
    afterProbe: f.stopping.afterProbeMaxMs <= TARGETS.afterProbeMs,
    far: f.far.every((p) => p.met),
  };
}

/** The rows of the full run, one requirement, their floors, memory and throughput. */
function runRows(f: Figures, met: ReturnType<typeof metOf>): string[][] {
  const { embedded, floor, throughput } = f;
  return [
    [
      'Full run, bundled server (median of 5)',
      secs(embedded.medianWallMs),
      `<= ${TARGETS.wallMs / 1000} s`,
      mark(met.wall),
    ],
    ['Requests sent', `${embedded.requests}`, `>= ${TARGETS.requests}`, mark(met.requests)],
    [
      `  / the floor: its ${embedded.requests} requests replayed`,
      `${secs(floor.fullMs)}: ${floor.fullRatio}x`,
      `<= ${TARGETS.fullVsFloor}x`,
      mark(met.fullVsFloor),
    ],
    [`One requirement (--only ${ONE}, median of ${RUNS})`, secs(floor.oneRunMs), '', ''],
    [
      `  / the floor: its ${floor.oneRequests} requests replayed`,
      `${secs(floor.oneMs)}: ${floor.oneRatio}x`,
      `<= ${TARGETS.oneVsFloor}x`,
      mark(met.oneVsFloor),
    ],
    ['Requests per second (whole run)', `${embedded.requestsPerSecond}`, '', ''],
    [
      'Peak RSS, process tree (median; max)',
      `${embedded.medianPeakRssMb} MB; ${embedded.maxPeakRssMb} MB`,
      `<= ${TARGETS.peakRssMb} MB`,
      mark(met.rss),
    ],
    [
      'Suite throughput / plain undici loop',
      `${throughput.medianSuiteRps} / ${throughput.medianLoopRps} req/s = ${Math.round(throughput.medianRatio * 100)}%`,
      `>= ${TARGETS.throughputRatio * 100}%`,
      mark(met.throughput),
    ],
  ];
}

/** The table: the runs, the latency run against its lower bound, the HAR's cost, stopping. */
export function benchRows(m: Measured, f: Figures, met: ReturnType<typeof metOf>): string[][] {
  const { requests, bound } = lowerBound(m);
  return [
    ...runRows(f, met),
    [`Run with ${LATENCY_MS} ms per answer (median of ${LATENCY_RUNS})`, secs(f.latency.medianWallMs), '', ''],
    [
      '  lower bound',
      `${secs(bound)} = max(${m.chain} x ${LATENCY_MS} ms, ${requests} x ${LATENCY_MS} ms / ${m.concurrency})`,
      '',
      '',
    ],
    ['  wall / lower bound', `${f.latency.factor}x`, `<= ${TARGETS.latencyFactor}x`, mark(met.latency)],
    ...farRows(m.far),
    ...harRows(m.har),
    ...stoppingRows(m.stopping),
  ];
}
