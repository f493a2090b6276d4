// The cost of --har: each run of steps 1 to 3 paired with the same run writing a HAR, in turn, so
// drift on the machine hits both alike; the median of the pairs' ratios, and its rows.
import { LATENCY_MS, TARGETS } from './config.js';
import { mark } from './output.js';
import type { CliRun } from './process.js';
import { median, round, signed, secs } from './stats.js';

/** A run against a server with LATENCY_MS on every answer, then the same run writing a HAR: time per request of each (server span / requests). */
export interface RemotePair {
  msPerRequest: number;
  msPerRequestHar: number;
}

/** Each pair's own ratio: the machine drifts over the rounds more than between two runs in a row. */
const paired = (ratios: number[]) => median(ratios) - 1;

/** The HAR's cost: paired runs with and without it (steps 1, 2 and 3), and its entries against run.requests. */
export function harFigures(
  embedded: readonly CliRun[],
  embeddedHar: readonly CliRun[],
  rounds: readonly { suiteRps: number; harRps: number }[],
  remote: readonly RemotePair[],
) {
  const pairs = embedded.map((r, i) => [r, embeddedHar[i] as CliRun] as const);
  const last = embeddedHar[embeddedHar.length - 1];
  return {
    remote: {
      latencyMs: LATENCY_MS,
      runs: remote.length,
      medianMsPerRequest: round(median(remote.map((r) => r.msPerRequestHar)), 2),
      medianMsPerRequestWithout: round(median(remote.map((r) => r.msPerRequest)), 2),
      overhead: round(paired(remote.map((r) => r.msPerRequestHar / r.msPerRequest)), 3),
    },
    runs: embeddedHar.length,
    rounds: rounds.length,
    medianWallMs: round(median(embeddedHar.map((r) => r.wallMs))),
    medianWallMsWithout: round(median(embedded.map((r) => r.wallMs))),
    wallOverhead: round(paired(pairs.map(([r, h]) => h.wallMs / r.wallMs)), 3),
    medianCpuMs: round(median(embeddedHar.map((r) => r.cpuMs))),
    medianCpuMsWithout: round(median(embedded.map((r) => r.cpuMs))),
    cpuOverhead: round(paired(pairs.map(([r, h]) => h.cpuMs / r.cpuMs)), 3),
    medianSuiteRps: round(median(rounds.map((r) => r.harRps))),
    medianSuiteRpsWithout: round(median(rounds.map((r) => r.suiteRps))),
    rateOverhead: round(paired(rounds.map((r) => r.suiteRps / r.harRps)), 3),
    wallMs: embeddedHar.map((r) => round(r.wallMs)),
    peakRssMb: embeddedHar.map((r) => round(r.peakRssMb)),
    entries: last?.har?.entries ?? null,
    requests: last?.requests ?? null,
    entriesEqualRequests: embeddedHar.every(
      (r) => r.har !== null && r.har !== undefined && r.har.entries === r.requests,
    ),
    bytes: last?.har?.bytes ?? null,
  };
}

export function harRows(har: ReturnType<typeof harFigures>): string[][] {
  const goal = `<= +${TARGETS.harOverhead * 100}%`;
  const row = (measure: string, measured: string, overhead: number) => [
    measure,
    measured,
    goal,
    mark(overhead <= TARGETS.harOverhead),
  ];
  const { remote } = har;
  return [
    row(
      `With --har, ${remote.latencyMs} ms per answer: time per request ` +
        `(median of ${remote.runs} pairs; without: ${remote.medianMsPerRequestWithout.toFixed(2)} ms)`,
      `${remote.medianMsPerRequest.toFixed(2)} ms, ${signed(remote.overhead)}`,
      remote.overhead,
    ),
    row(
      `With --har, no latency: full run (median of ${har.runs} pairs; without: ${secs(har.medianWallMsWithout)})`,
      `${secs(har.medianWallMs)}, ${signed(har.wallOverhead)}`,
      har.wallOverhead,
    ),
    row(
      `  its processor time (without: ${secs(har.medianCpuMsWithout)})`,
      `${secs(har.medianCpuMs)}, ${signed(har.cpuOverhead)}`,
      har.cpuOverhead,
    ),
    row(
      `With --har, no latency: suite request rate (median of ${har.rounds} pairs; without: ${har.medianSuiteRpsWithout} req/s)`,
      `${har.medianSuiteRps} req/s, time per request ${signed(har.rateOverhead)}`,
      har.rateOverhead,
    ),
    [
      '  HAR entries / run.requests; size',
      `${har.entries} / ${har.requests}${har.entriesEqualRequests ? ' (equal in every run)' : ' (DIFFER)'}; ${round((har.bytes ?? 0) / 1e6, 1)} MB`,
      '',
      '',
    ],
  ];
}
