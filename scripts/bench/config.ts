// What `npm run bench` measures with: how many runs of each kind, the latencies, the seed, and the
// targets each figure is set against. Every part of the bench reads them from here.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'petstore-conformance.js');
/** The bench's entry: the plain loop runs as a child process of it (`--loop`). */
export const ENTRY = join(ROOT, 'scripts', 'bench.ts');
export const RUNS = 5;
export const THROUGHPUT_RUNS = 5;
/** Plain loops per throughput round: a cold process varies from one to the next. */
export const LOOPS = 3;
export const LATENCY_RUNS = 3;
export const LATENCY_MS = 40;
export const CHAIN_LATENCY_MS = 200;
/** Staging far away (issue 42): the round trip of the delaying proxy, and runs per path. */
export const NETWORK_RTT_MS = 40;
export const NETWORK_RUNS = 3;
/** Most requests in flight the CLI accepts: enough that nothing queues on the chain run. */
export const MAX_CONCURRENCY = 256;
/** Every run draws the same inputs, so every run does the same work. */
export const SEED = 20261121;
export const SAMPLE_MS = 10;
/** The requirement a developer runs again and again: `--only` one. */
export const ONE = 'service.json-content-type';
export const STOP_RUNS = 3;
export const STOP_LATENCY_MS = 300;
/** Mid-run: past the probe and preflight, the population being created, most checks waiting. */
export const STOP_AFTER = 40;

export const TARGETS = {
  wallMs: 5_000,
  requests: 1_500,
  throughputRatio: 0.5,
  /** Issue 28: a full run at most 1.5 times the floor for its requests; one requirement at most 2 times. */
  fullVsFloor: 1.5,
  oneVsFloor: 2,
  latencyFactor: 1.25,
  /** Issue 42: on loopback against a server in another process, and through 40 ms round trips with TCP + TLS handshakes, each against its floor. */
  loopbackVsFloor: 1.5,
  networkVsFloor: 1.25,
  peakRssMb: 160,
  harOverhead: 0.1,
  stopMs: 2_000,
  afterProbeMs: 2_000,
} as const;
