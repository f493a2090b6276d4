// The suite never hangs and never crashes, whatever the target does. The real bin runs as a child
// process against servers that are down, silent, slow, half-written or wrong (servers.ts), and
// each run must end within a bound derived below, exit with the documented code, say in one line
// per failed requirement why (no stack trace anywhere), write every report file, and keep its
// memory bounded (V8's heap is capped; the peak RSS is measured).
//
// The time bound. Every request ends within T (PETSTORE_TIMEOUT_MS, the whole exchange, body
// included), or, for a 429 or 503 with Retry-After, within W = (R+1)·T + R·A (R retries, A the
// wait asked). Only 429/503 are retried, so W = T for every other server. A request that gets no
// usable answer (timeout, reset, retries spent) ends its check: no check catches a transport
// failure, the store's population is one shared promise, and a property stops at its first error.
// So the longest chain of dependent requests that wait is L = 1, and what makes a run long is how
// many requests wait at once: the client lets C (PETSTORE_CONCURRENCY) be in flight, so S waiting
// requests take at most ceil(S/C) rounds of W. S is counted by the server. Hence
//   bound = O + T (the probe) + ceil(S/C) · W · L · k
// with O the start-up and report writing (see OVERHEAD_MS), and k the scheduling slack of a loaded
// machine (see ROUND_SLACK). Servers that answer at once never make
// a request wait; for them the bound is generous, and a hang would still break it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EXIT } from '../../src/commands/cli.js';
import { MAX_JSON_DEPTH } from '../../src/wire/json.js';
import { MANIFEST_FILE, REPORT_FILES } from '../../src/report/reporter.js';
import { catalogue } from '../../tests/catalogue.js';
import { inParallel } from '../harness/harness.js';
import { blackHole, closedPort } from '../net-kit.js';
import { runBinMeasured, type ChildRun } from './child.js';
import { BEHAVIOURS, elsewhere, hostileServer, redirectTo, type HostileServer } from './servers.js';

/** Per-request timeout (ms): short, so the runs are quick, long enough for a loaded machine's loopback. */
const T = 1_500;
/** Retries of 429/503 with Retry-After, and the wait the rate-limiting server asks for (ms). */
const R = 1;
const A = 1_000;
/** PETSTORE_CONCURRENCY: the default. */
const C = 16;
/**
 * Start-up of node and tsx, loading the catalogue, and writing the six report files, with eight
 * runs at once beside two busy loops on a 2-core machine (measured when a run still started vitest
 * too): allowed ten times what that took, for a machine 3 times slower, in \`npm test\` beside the
 * other files.
 */
const OVERHEAD_MS = 90_000;
/**
 * On a loaded 2-core machine a timer fires late and the request queued behind it starts late, in
 * every round: a round of T took 1.4 T beside two busy loops (over the silent server's 15 rounds).
 * Twice T: a hang, or T not honoured, still breaks the bound.
 */
const ROUND_SLACK = 2;
/** V8's heap limit of the child (the checks run in its main thread, its only isolate), in MiB. */
const HEAP_MIB = 256;
/**
 * Peak RSS allowed: the heap at its limit, response bodies being read outside the heap (C × 2 ×
 * 8 MiB: the chunks, then their concatenation), and 256 MiB for the code and runtime of node and
 * tsx (a whole run of the reference server peaks far below that without a heap limit: npm run bench).
 */
const RSS_BOUND = (HEAP_MIB + C * 2 * 8 + 256) * 2 ** 20;
/** Runs at once. */
const POOL = 8;
/**
 * Requests the 50 MB server answers with it: 8 rounds of C. Kept whole, their bodies would exceed
 * the heap cap 30 times over and, even outside the heap, the RSS bound; each costs the processor
 * 8 MiB through loopback, so not every request of the run (some 430) gets one.
 */
const HUGE_ANSWERS = 8 * C;

interface Case {
  /** The hostile behaviour, in plain words. */
  behaviour: string;
  start: () => Promise<Target>;
  exit: number;
  /** Longest a single request can take against it (ms). */
  perRequest: number;
  /** More that must hold for this server. */
  check?: (run: ChildRun, report: Report, server: HostileServer | undefined) => void;
}

interface Target {
  baseUrl: string;
  apiKey: string;
  /** Requests the server misbehaved on. */
  waiting(): number;
  server?: HostileServer;
  close(): Promise<void>;
}

interface Report {
  verdict: string;
  run: { targetLost?: unknown };
  requirements: {
    id: string;
    level: string;
    outcome: string;
    message?: string;
    causedBy?: string;
    skipReason?: string;
    note?: string;
  }[];
}

const closers: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(closers.map((c) => c.close())));

/** A hostile server (`door`: it answers the unauthenticated probe properly, so the suite runs). */
const hostile =
  (behaviour: Parameters<typeof hostileServer>[0], door = false) =>
  async (): Promise<Target> => {
    const s = await hostileServer(behaviour, { door });
    return { ...s, waiting: () => s.seen.hostile, server: s };
  };

/** What the report says of each requirement: a failure's message, or why it was skipped or blocked, or a passed one's note. */
const messages = (report: Report) =>
  report.requirements.map((r) => [r.message, r.skipReason, r.note].filter(Boolean).join('\n')).join('\n');

let redirectTarget: Awaited<ReturnType<typeof elsewhere>>;

/**
 * The server that makes every check wait comes first: the pool starts it before the runs that
 * need the processor, so its waiting overlaps their work.
 */
const CASES: Case[] = [
  {
    behaviour: 'answers the probe, then never answers',
    start: hostile('silent', true),
    exit: EXIT.violations,
    perRequest: T,
    check: (_run, report) => expect(messages(report)).toContain(`timeout: no complete response within ${T} ms`),
  },
  {
    behaviour: 'nothing listening',
    start: async () => ({
      baseUrl: `http://127.0.0.1:${await closedPort()}/v1`,
      apiKey: 'hostile-key-refused',
      waiting: () => 0,
      close: async () => {},
    }),
    exit: EXIT.unreachable,
    perRequest: T,
    check: (run) => expect(run.stderr).toMatch(/: connection refused\n$/),
  },
  {
    behaviour: 'accepts connections and never answers',
    start: async () => {
      const hole = await blackHole();
      return { ...hole, baseUrl: `http://127.0.0.1:${hole.port}/v1`, apiKey: 'hostile-key-silent', waiting: () => 1 };
    },
    exit: EXIT.unreachable,
    perRequest: T,
    check: (run) => expect(run.stderr).toMatch(new RegExp(`: timeout: no complete response within ${T} ms\\n$`)),
  },
  {
    behaviour: 'answers headers, then stalls the body',
    start: hostile('stallBody'),
    exit: EXIT.unreachable,
    perRequest: T,
    check: (run) => expect(run.stderr).toMatch(new RegExp(`: timeout: no complete response within ${T} ms\\n$`)),
  },
  {
    behaviour: 'drips a byte a second',
    start: hostile('drip'),
    exit: EXIT.unreachable,
    perRequest: T,
    check: (run) => expect(run.stderr).toMatch(new RegExp(`: timeout: no complete response within ${T} ms\\n$`)),
  },
  {
    behaviour: 'resets the connection mid-response',
    start: hostile('reset'),
    exit: EXIT.unreachable,
    perRequest: T,
    check: (run) => expect(run.stderr).toMatch(/: connection (reset|closed) by the server\n$/),
  },
  {
    behaviour: 'a Content-Length longer than the body, then hangs up',
    start: hostile('lengthTooLong'),
    exit: EXIT.unreachable,
    perRequest: T,
    check: (run) =>
      expect(run.stderr).toMatch(
        /: (connection closed by the server|response body did not match its Content-Length)\n$/,
      ),
  },
  {
    behaviour: 'a Content-Length shorter than the body (the rest spills into the next answer)',
    start: hostile('lengthTooShort'),
    exit: EXIT.violations,
    perRequest: T,
    check: (_run, report) => expect(messages(report)).toContain('a body that is not JSON'),
  },
  {
    behaviour: '200 with a body that is not JSON (an HTML page, truncated JSON, an empty body, in turn)',
    start: hostile('notJson'),
    exit: EXIT.violations,
    perRequest: T,
    // Which request meets which body depends on the scheduling; each kind is named either way: by
    // the parse error where JSON was expected, or shown as it came where any answer was judged.
    check: (_run, report) => {
      for (const why of [
        /got '<' at position 0|<!doctype html>/,
        /reached end of input at position|"name":"trunc/,
        /an empty body/,
      ])
        expect(messages(report)).toMatch(why);
    },
  },
  {
    behaviour: `answers the probe, then a 50 MB JSON list (to the first ${HUGE_ANSWERS} requests, 500 after)`,
    start: hostile(
      (req, res, seen) => (seen.hostile <= HUGE_ANSWERS ? BEHAVIOURS.huge : BEHAVIOURS.error500)(req, res, seen),
      true,
    ),
    exit: EXIT.violations,
    perRequest: T,
    check: (_run, report, server) => {
      expect(messages(report)).toMatch(/a body larger than the suite reads|timeout: /);
      // The client stops at 8 MiB and hangs up: no body was sent whole. (How far beyond the bound
      // the server got depends on the machine's load: the socket buffers, and what arrived before
      // the hang-up took effect, were 31 MB of 50 on a busy machine; no bound on it is asserted.)
      const bodies = server?.seen.bodies ?? [];
      expect(bodies).toHaveLength(HUGE_ANSWERS);
      expect(bodies.filter((b) => b.complete)).toEqual([]);
    },
  },
  {
    behaviour: '200 with JSON nested 10,000 levels deep',
    start: hostile('deep'),
    exit: EXIT.violations,
    perRequest: T,
    check: (run, report) => {
      expect(messages(report)).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`);
      expect(`${run.out}${messages(report)}`).not.toMatch(/RangeError|Maximum call stack/);
    },
  },
  {
    behaviour: '302 to another server, for everything',
    start: async () => {
      redirectTarget = await elsewhere();
      closers.push(redirectTarget);
      return hostile(redirectTo(redirectTarget.url))();
    },
    exit: EXIT.violations,
    perRequest: T,
    check: (_run, report) => {
      // The terminal gives each finding's first line; the whole message is in the reports.
      expect(messages(report)).toContain(`302, redirecting to Location: ${redirectTarget.url} (not followed)`);
      expect(redirectTarget.hits()).toBe(0);
    },
  },
  {
    behaviour: '500 for everything',
    start: hostile('error500'),
    // A 5xx that is not JSON, on the probe: a failing service, not tested.
    exit: EXIT.unreachable,
    perRequest: T,
  },
  {
    behaviour: '429 with Retry-After: 1, forever',
    start: hostile('rateLimited'),
    exit: EXIT.violations,
    perRequest: (R + 1) * T + R * A,
    // The first requests run out of retries; once nothing is accepted the rest are not retried.
    check: (_run, report) =>
      expect(messages(report)).toMatch(
        /429 with Retry-After: 1(, not retried: the server turns every request away| after \d+ retries)/,
      ),
  },
];

interface Row {
  c: Case;
  run: ChildRun;
  report?: Report;
  waiting: number;
  bound: number;
  server: HostileServer | undefined;
}

const rows: Row[] = [];

beforeAll(async () => {
  const started = performance.now();
  await inParallel(CASES, POOL, async (c) => {
    const server = await c.start();
    closers.push(server);
    const run = await runBinMeasured(
      ['--seed', '1'],
      {
        PETSTORE_BASE_URL: server.baseUrl,
        PETSTORE_API_KEY: server.apiKey,
        PETSTORE_TIMEOUT_MS: String(T),
        PETSTORE_RETRIES: String(R),
      },
      [`--max-old-space-size=${HEAP_MIB}`],
    );
    const waiting = server.waiting();
    // Requests to a 429 server: each logical request is R+1 of them.
    const logical = c.perRequest > T ? Math.ceil(waiting / (R + 1)) : waiting;
    const bound = OVERHEAD_MS + T + Math.ceil(logical / C) * c.perRequest * ROUND_SLACK;
    const file = join(run.reportDir, 'conformance.json');
    const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Report) : undefined;
    rows.push({ c, run, report, waiting, bound, server: server.server });
    await server.close();
  });
  console.log(
    [
      `hostile servers: ${rows.length} runs in ${Math.round(performance.now() - started)} ms, ${POOL} at a time; T=${T} ms, retries ${R}, concurrency ` +
        `${C}, heap ${HEAP_MIB} MiB`,
      '  behaviour | run time | exit | bound | requests waiting | peak RSS',
      ...CASES.map((c) => rows.find((r) => r.c === c) as Row).map(
        (r) =>
          `  ${r.c.behaviour} | ${(r.run.ms / 1000).toFixed(1)} s | ${r.run.code} | ${(r.bound / 1000).toFixed(1)} s | ${r.waiting} | ` +
          `${Math.round(r.run.peakRss / 2 ** 20)} MiB`,
      ),
    ].join('\n'),
  );
  // A hang guard: 14 runs, 8 at once, each within its bound; 3 times the longest bound, 14 times an
  // honest run beside two busy loops.
}, 600_000);

const row = (behaviour: string) => rows.find((r) => r.c.behaviour === behaviour) as Row;
const STACK_FRAME = /^\s+at \S.*(\(.*:\d+:\d+\)|:\d+:\d+)$/m;
/** What the terminal summary names under a finding's line: its indented "also failed because of this" lines. */
const namedUnder = (out: string, head: string): string => {
  const lines = out.split('\n');
  const at = lines.findIndex(
    (l) => l.startsWith(` ✘ ${head} `) || l.startsWith(` ? ${head} `) || l.startsWith(` ⚠ ${head} `),
  );
  const below = at < 0 ? [] : lines.slice(at + 1);
  return below
    .slice(
      0,
      Math.max(
        0,
        below.findIndex((l) => !l.startsWith('      ')),
      ),
    )
    .join(' ');
};

describe.each(CASES.map((c) => [c.behaviour, c] as const))('%s', (behaviour, c) => {
  test(`ends within its bound, exit ${c.exit}`, () => {
    const r = row(behaviour);
    expect(r.run.code, r.run.out.slice(-3000)).toBe(c.exit);
    expect(
      r.run.ms,
      `bound: ${OVERHEAD_MS} + ${T} + ceil(${r.waiting}/${C}) x ${c.perRequest} x ${ROUND_SLACK} ms`,
    ).toBeLessThanOrEqual(r.bound);
  });

  test('no stack trace, no crash; one line per failed requirement', () => {
    const r = row(behaviour);
    expect(r.run.out).not.toMatch(STACK_FRAME);
    expect(r.run.out).not.toMatch(/Unhandled|Worker exited|out of memory|suite error/i);
    const report = r.report as Report;
    c.check?.(r.run, report, r.server);
    if (c.exit === EXIT.unreachable) {
      expect(r.run.stderr).toMatch(
        /^petstore-conformance: (cannot reach|the service behind) http:\/\/127\.0\.0\.1:\d+\/v1:? [^\n]+\n$/,
      );
      expect(r.run.stdout).toBe('');
      return;
    }
    for (const e of report.requirements.filter(
      (x) => x.level === 'MUST' && (x.outcome === 'failed' || x.outcome === 'error'),
    )) {
      // Its own line, or named under the failure that explains it (root cause first: "also failed because of this"),
      // or, undecided for want of an answer, counted under the one line of a target that stopped answering.
      const own = new RegExp(`^ [✘?] ${e.id.replace(/\./g, '\\.')} .*\\S$`, 'm').test(r.run.out);
      const lost = report.run.targetLost !== undefined && (e.message ?? '').startsWith('could not decide');
      expect(own || lost || (e.causedBy !== undefined && namedUnder(r.run.out, e.causedBy).includes(e.id)), e.id).toBe(
        true,
      );
      // A failure of the suite itself would be "suite error" or "did not finish": the server's fault is neither.
      expect(e.message, e.id).not.toMatch(/^(suite error|the check did not finish)/);
      expect(e.message, e.id).not.toMatch(STACK_FRAME);
    }
  });

  test('every report file is written, with a verdict that is not "conformant"', () => {
    const r = row(behaviour);
    for (const file of [...REPORT_FILES, MANIFEST_FILE])
      expect(existsSync(join(r.run.reportDir, file)), file).toBe(true);
    expect(r.report?.verdict).toMatch(c.exit === EXIT.unreachable ? /^not-tested$/ : /^(nonconformant|inconclusive)$/);
    expect(r.report?.requirements.map((e) => e.id).sort()).toEqual(catalogue.map((e) => e.id).sort());
  });

  test('memory stays bounded', () => {
    const r = row(behaviour);
    expect(r.run.peakRss).toBeGreaterThan(0);
    expect(r.run.peakRss).toBeLessThanOrEqual(RSS_BOUND);
  });
});
