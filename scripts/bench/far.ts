// Staging far away (issue 42): the suite against a reference server in the bench's process, on
// loopback, over HTTPS, and through a delaying proxy of NETWORK_RTT_MS round trips where each new
// connection pays its handshakes (TCP; TCP + TLS); each beside its floor, the same requests
// replayed from the run's HAR on `concurrency` kept-alive connections through the same path.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { makeCertificates, type Certificates } from '../../self-tests/net-kit.js';
import { NETWORK_RTT_MS, NETWORK_RUNS, ROOT, TARGETS } from './config.js';
import { delayProxy } from './delay-proxy.js';
import { bundleFloor, runFloor } from './floor-run.js';
import { benchServer } from './network.js';
import { mark, say } from './output.js';
import { check, runCli } from './process.js';
import { median, round, secs } from './stats.js';

/**
 * Where the delaying proxy listens: an address of this machine that is not loopback, when it has
 * one. The suite opens nothing ahead for a target on loopback (src/wire/warm.ts), and the proxy
 * stands for a network far away.
 */
const FAR_HOST =
  Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address ?? '127.0.0.1';

export interface Far {
  path: 'loopback' | 'https' | 'tcp' | 'tls';
  requests: number;
  /** Medians of NETWORK_RUNS. */
  runMs: number;
  floorMs: number;
  /** New connections a run opened (the proxy's count; through no proxy, the report's). */
  connections: number | null;
  floorConnections: number | null;
  /** On loopback: the same runs with V8's default optimization budget (the bin sets a larger one). */
  v8Default?: { budget: string; ms: number };
}

/** V8's own `--interrupt-budget`, as this node reports it, for runs that keep V8's default. */
function v8DefaultBudget(): string {
  const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
  const found = /default: (--interrupt-budget=\d+)/.exec(options)?.[1];
  if (!found) throw new Error('node --v8-options names no default --interrupt-budget');
  return found;
}

const PATHS: Record<Far['path'], { https: boolean; rttMs: number; what: string }> = {
  loopback: { https: false, rttMs: 0, what: 'loopback, the server in another process' },
  https: { https: true, rttMs: 0, what: 'HTTPS (test certificate), loopback' },
  tcp: { https: false, rttMs: NETWORK_RTT_MS, what: `${NETWORK_RTT_MS} ms round trips, TCP handshakes` },
  tls: { https: true, rttMs: NETWORK_RTT_MS, what: `${NETWORK_RTT_MS} ms round trips, TCP + TLS handshakes` },
};

/** One path: a run writing the HAR the floor replays, then NETWORK_RUNS runs and floors in turn. */
async function farPath(path: Far['path'], concurrency: number, certs: Certificates): Promise<Far> {
  const { https, rttMs, what } = PATHS[path];
  const replay = join(ROOT, '.build', 'bench', `far-${path}-requests.json`);
  /** `measure` against a fresh server (each run and floor sees an empty store), behind a fresh proxy when far. */
  const fresh = async <T>(
    measure: (t: { origin: string; apiKey: string; env: Record<string, string> }) => Promise<T>,
  ) => {
    const server = await benchServer(0, https ? certs : undefined);
    const proxy = rttMs > 0 ? await delayProxy(server.baseUrl.replace(/\/v1$/, ''), rttMs, FAR_HOST) : undefined;
    const origin = proxy?.origin ?? server.baseUrl.replace(/\/v1$/, '');
    const env = {
      PETSTORE_BASE_URL: `${origin}/v1`,
      PETSTORE_API_KEY: server.apiKey,
      NODE_EXTRA_CA_CERTS: certs.caFile,
    };
    try {
      return { measured: await measure({ origin, apiKey: server.apiKey, env }), opened: proxy?.connections() ?? null };
    } finally {
      await proxy?.close();
      await server.close();
    }
  };
  await fresh(async ({ env }) =>
    check(await runCli(env, `far-${path}-har`, { har: true, replay }), `the run (${what}) with --har`),
  );
  const runs: { ms: number; opened: number | null; requests: number }[] = [];
  const floors: { ms: number; opened: number | null }[] = [];
  const v8Default: number[] = [];
  const budget = path === 'loopback' ? v8DefaultBudget() : undefined;
  for (let i = 0; i < NETWORK_RUNS; i++) {
    if (budget) {
      const run = await fresh(({ env }) => runCli(env, `far-${path}-v8`, { node: [budget] }));
      check(run.measured, `the run (${what}) with ${budget}`);
      v8Default.push(run.measured.wallMs);
    }
    const run = await fresh(({ env }) => runCli(env, `far-${path}`));
    check(run.measured, `the run (${what})`);
    runs.push({
      ms: run.measured.wallMs,
      opened: run.opened ?? run.measured.connections,
      requests: run.measured.requests ?? 0,
    });
    const floor = await fresh((target) => runFloor(replay, concurrency, target));
    floors.push({ ms: floor.measured.wallMs, opened: floor.opened });
  }
  const far: Far = {
    path,
    requests: median(runs.map((r) => r.requests)),
    runMs: round(median(runs.map((r) => r.ms))),
    floorMs: round(median(floors.map((f) => f.ms))),
    connections: runs[0]?.opened === null ? null : median(runs.map((r) => r.opened ?? 0)),
    floorConnections: floors[0]?.opened === null ? null : median(floors.map((f) => f.opened ?? 0)),
    ...(budget ? { v8Default: { budget, ms: round(median(v8Default)) } } : {}),
  };
  say(
    `  ${what}: ${far.runMs} ms for ${far.requests} requests (${far.connections ?? '?'} connections), ` +
      `floor ${far.floorMs} ms (${far.floorConnections ?? concurrency} connections): ${round(far.runMs / far.floorMs, 2)}x` +
      (far.v8Default ? `; with V8's default ${far.v8Default.budget} ${far.v8Default.ms} ms` : ''),
  );
  return far;
}

/** Every path, in turn. */
export async function farRuns(concurrency: number, step = ''): Promise<Far[]> {
  say(
    `${step}staging far away: each path ${NETWORK_RUNS} times, each run beside its floor (its HAR replayed, ${concurrency} kept-alive connections)`,
  );
  await bundleFloor();
  // A private CA and a certificate for 127.0.0.1, made with openssl as the self-tests make theirs.
  const certs = makeCertificates(FAR_HOST === '127.0.0.1' ? [] : [FAR_HOST]);
  if (FAR_HOST === '127.0.0.1')
    say('  (no address but loopback here: through the proxy, as on loopback, nothing is opened ahead)');
  try {
    const far: Far[] = [];
    for (const path of Object.keys(PATHS) as Far['path'][]) far.push(await farPath(path, concurrency, certs));
    return far;
  } finally {
    rmSync(certs.dir, { recursive: true, force: true });
  }
}

const ratio = (f: Far) => round(f.runMs / f.floorMs, 2);
const goal: Partial<Record<Far['path'], number>> = { loopback: TARGETS.loopbackVsFloor, tls: TARGETS.networkVsFloor };

/** Each path's ratio to its floor, and whether it meets its goal where it has one. */
export function farFigures(far: readonly Far[]) {
  return far.map((f) => ({
    ...f,
    ratio: ratio(f),
    goal: goal[f.path] ?? null,
    met: ratio(f) <= (goal[f.path] ?? Infinity),
  }));
}

/** The table's rows: each path's run, and its floor beside it. */
export function farRows(far: readonly Far[]): string[][] {
  return farFigures(far).flatMap((f) => [
    [
      `${PATHS[f.path].what[0]?.toUpperCase()}${PATHS[f.path].what.slice(1)} (median of ${NETWORK_RUNS})`,
      `${secs(f.runMs)}, ${f.requests} requests on ${f.connections ?? '?'} new connections`,
      '',
      '',
    ],
    [
      `  / the floor: its requests replayed on ${f.floorConnections ?? 'kept-alive'} connections`,
      `${secs(f.floorMs)}: ${f.ratio}x`,
      f.goal === null ? '' : `<= ${f.goal}x`,
      f.goal === null ? '' : mark(f.met),
    ],
    ...(f.v8Default === undefined
      ? []
      : [
          [
            `  / the run with V8's default ${f.v8Default.budget} (the bin sets a larger one)`,
            `${secs(f.v8Default.ms)}: ${round(f.v8Default.ms / f.floorMs, 2)}x`,
            '',
            '',
          ],
        ]),
  ]);
}
