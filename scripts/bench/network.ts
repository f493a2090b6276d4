// The network model: a reference server this bench serves, which adds a latency to every answer
// and logs when each request arrived and its answer left; the rate, and the longest chain of
// requests that waited for one another, read from that log.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createReferenceHandler } from '../../src/reference-server/handler.js';
import { serve } from '../../src/reference-server/http.js';
import { check, runCli, type CliRun } from './process.js';

export interface BenchServer {
  baseUrl: string;
  apiKey: string;
  /** [arrival, departure] in ms (performance.now), in arrival order. */
  log: [number, number][];
  close(): Promise<void>;
}

/** With `tls` (PEM key and certificate), over HTTPS. */
export async function benchServer(latencyMs: number, tls?: { key: string; cert: string }): Promise<BenchServer> {
  const apiKey = randomBytes(18).toString('base64url');
  const handler = createReferenceHandler({ apiKey });
  const log: [number, number][] = [];
  const server = await serve(
    async (req) => {
      const arrived = performance.now();
      const res = await handler(req);
      if (latencyMs > 0) await sleep(latencyMs);
      log.push([arrived, performance.now()]);
      return res;
    },
    tls ? { tls } : {},
  );
  return { baseUrl: `${server.origin}/v1`, apiKey, log, close: server.close };
}

/** The suite's requests: all but the first two, the CLI's probe and preflight sent before the checks start. */
const suiteRequests = (log: [number, number][]) => [...log].sort((a, b) => a[0] - b[0]).slice(2);

/** Requests per second over the span from the first arrival to the last departure. */
export function rateOf(log: [number, number][]): { requests: number; spanMs: number; rps: number } {
  const spanMs = Math.max(...log.map((r) => r[1])) - Math.min(...log.map((r) => r[0]));
  return { requests: log.length, spanMs, rps: (log.length / spanMs) * 1000 };
}

/**
 * Longest chain of requests where each arrived after the previous one's answer left: a longest
 * path in the order "B after A's answer", computed in one pass over arrivals.
 */
export function longestChain(log: readonly (readonly [number, number])[]): number {
  const byArrival = [...log].sort((a, b) => a[0] - b[0]);
  const byDeparture = byArrival.map((r, i) => ({ departed: r[1], i })).sort((a, b) => a.departed - b.departed);
  const depth = new Array<number>(byArrival.length).fill(0);
  let best = 0;
  let j = 0;
  let longest = 0;
  byArrival.forEach(([arrived], i) => {
    while (j < byDeparture.length && (byDeparture[j] as { departed: number }).departed <= arrived)
      best = Math.max(best, depth[(byDeparture[j++] as { i: number }).i] as number);
    depth[i] = best + 1;
    longest = Math.max(longest, best + 1);
  });
  return longest;
}

/** The CLI against `server`, which must pass. */
export async function runAgainst(
  server: BenchServer,
  env: Record<string, string>,
  label: string,
  har: boolean,
  what: string,
) {
  const run = await runCli({ PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.apiKey, ...env }, label, {
    har,
  });
  check(run, what);
  return run;
}

/** Suite against the reference server with `latencyMs` on every answer; the server's log of it. */
export async function againstServer(
  latencyMs: number,
  env: Record<string, string> = {},
  har = false,
): Promise<{ run: CliRun; log: [number, number][] }> {
  const server = await benchServer(latencyMs);
  try {
    const label = `${latencyMs}ms${har ? '-har' : ''}`;
    const run = await runAgainst(
      server,
      env,
      label,
      har,
      `the run against the ${latencyMs} ms server${har ? ' with --har' : ''}`,
    );
    return { run, log: suiteRequests(server.log) };
  } finally {
    await server.close();
  }
}

/** The suite's request rate against a fresh reference server, as that server measured it; the server left open. */
export async function suiteRate(
  har: boolean,
): Promise<{ server: BenchServer; rate: ReturnType<typeof rateOf>; run: CliRun }> {
  const server = await benchServer(0);
  try {
    const run = await runAgainst(
      server,
      {},
      har ? 'throughput-har' : 'throughput',
      har,
      `the throughput run${har ? ' with --har' : ''}`,
    );
    return { server, rate: rateOf(suiteRequests(server.log)), run };
  } catch (err) {
    await server.close();
    throw err;
  }
}
