// Ctrl-C during a run: the real bin, mid-run against a slow server, gets SIGINT. It must stop
// promptly, exit 130, and leave every report file, marked interrupted: the verdict is
// "inconclusive" unless a violation was already proven, and the ledger lists the pets created.
// The promise of 2 s is measured by `npm run bench -- --stopping`; here the bound only tells a
// stop from a run that ignored the signal, on a machine of any speed.
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, test } from 'vitest';
import { EXIT } from '../../src/commands/cli.js';
import { json, type Handler } from '../../src/reference-server/handler.js';
import { MANIFEST_FILE, REPORT_FILES } from '../../src/report/reporter.js';
import { CHILD_TIMEOUT, referenceServer, targetEnv, tempDir, type TestServer } from '../net-kit.js';
import { startBin, type ChildRun } from './child.js';

/**
 * Stopped within this long after Ctrl-C: some 40 times the slowest stop seen on 2 cores with more
 * load on top of two busy loops. A run that ignored the signal goes on some 3 times this long
 * (SLOW_MS on every answer) or waits out its 30 s probe timeout.
 */
const STOP_WITHIN_MS = 15_000;
/** Each answer of the slow servers is held this long, so a whole run lasts far longer than the test waits. */
const SLOW_MS = 500;

const servers: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function until(condition: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

interface Interrupted {
  run: ChildRun;
  /** From SIGINT to the process's end. */
  stopMs: number;
  report: {
    verdict: string;
    run: { interrupted: boolean };
    requirements: { id: string; outcome: string; message?: string }[];
  };
  ledger: string[];
  /** Pets the server had created (201 written) when the signal was sent. */
  createdBefore: number;
}

/** Runs the bin against `server`, sends SIGINT once pets are being created, and reads what it left. */
async function interrupt(server: TestServer): Promise<Interrupted> {
  const started = startBin([], targetEnv(server));
  await started.waitFor(/petstore-conformance: testing /);
  // Mid-run: checks have started, the population is being created, most checks are still waiting.
  await until(() => server.traffic.created.length >= 20, 'pets being created');
  const createdBefore = server.traffic.created.length;
  const signalled = started.elapsed();
  started.child.kill('SIGINT');
  const run = await started.done;
  console.log(
    `interrupt: stopped ${Math.round(run.ms - signalled)} ms after SIGINT, ${Math.round(signalled)} ms into the run`,
  );
  const read = (file: string) => readFileSync(join(run.reportDir, file), 'utf8');
  return {
    run,
    stopMs: Math.round(run.ms - signalled),
    report: JSON.parse(read('conformance.json')) as Interrupted['report'],
    ledger: (JSON.parse(read('created-pets.json')) as { ids: string[] }).ids,
    createdBefore,
  };
}

describe('Ctrl-C during a run', CHILD_TIMEOUT, () => {
  const slowly =
    (inner: Handler): Handler =>
    async (req) => {
      await sleep(SLOW_MS);
      return inner(req);
    };

  // One at a time: two slow runs at once would only make each slower.
  test('stops at once, exits 130 and writes every report, marked interrupted and inconclusive', async () => {
    const server = await referenceServer({ wrap: slowly });
    servers.push(server);
    const { run, stopMs, report, ledger, createdBefore } = await interrupt(server);
    expect(run.code, run.out.slice(-3000)).toBe(EXIT.interrupted);
    expect(stopMs).toBeLessThanOrEqual(STOP_WITHIN_MS);
    for (const file of [...REPORT_FILES, MANIFEST_FILE]) expect(existsSync(join(run.reportDir, file)), file).toBe(true);
    expect(report.run.interrupted).toBe(true);
    expect(report.verdict).toBe('inconclusive');
    // Nothing was proven violated; what did not finish is undecided, saying why.
    expect(report.requirements.filter((r) => r.outcome === 'failed')).toEqual([]);
    const unfinished = report.requirements.filter((r) => r.outcome === 'error');
    expect(unfinished.length).toBeGreaterThan(0);
    for (const r of unfinished) expect(r.message, r.id).toMatch(/interrupted/);
    expect(run.out).toContain('the run was interrupted');
    expect(run.out).not.toMatch(/^\s+at \S.*:\d+:\d+\)?$/m);
    // The ledger holds only pets the server created, and every one whose answer had come back
    // (a request in flight at the signal may have created a pet the suite never heard of).
    const created = new Set(server.traffic.created.map((p) => p.id));
    expect(ledger.filter((id) => !created.has(id))).toEqual([]);
    expect(ledger.length).toBeGreaterThanOrEqual(createdBefore - 16);
  });

  test('a violation proven before Ctrl-C stands: the verdict is nonconformant, the exit still 130', async () => {
    // Unauthenticated requests get 200 at once (authentication is violated within moments); the rest is slow.
    const openDoor =
      (inner: Handler): Handler =>
      (req) =>
        req.headers.authorization === undefined ? json(200, []) : slowly(inner)(req);
    const server = await referenceServer({ wrap: openDoor });
    servers.push(server);
    const { run, stopMs, report } = await interrupt(server);
    expect(run.code, run.out.slice(-3000)).toBe(EXIT.interrupted);
    expect(stopMs).toBeLessThanOrEqual(STOP_WITHIN_MS);
    expect(report.run.interrupted).toBe(true);
    expect(report.verdict).toBe('nonconformant');
    // Proven before the signal: the requirements that send requests without a key and need nothing slow.
    const violated = report.requirements.filter((r) => r.outcome === 'failed');
    expect(violated.length).toBeGreaterThan(0);
    for (const r of violated) expect(r.message, r.id).toMatch(/expected 401/);
  });
});

/** Listens on 127.0.0.1, closing every connection when the test file ends; `seen` counts what arrived. */
async function listening(
  server: ReturnType<typeof createNetServer> | ReturnType<typeof createHttpServer>,
): Promise<string> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push({
    close: () => new Promise<void>((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))),
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('Ctrl-C before the checks start, and while the reports are written', CHILD_TIMEOUT, () => {
  /** Sends SIGINT once `ready` holds and reads what the run left. */
  async function interruptWhen(env: Record<string, string>, ready: () => boolean, what: string) {
    const started = startBin(['--timeout', '30000'], env);
    await until(ready, what);
    const signalled = started.elapsed();
    started.child.kill('SIGINT');
    const run = await started.done;
    const report = JSON.parse(readFileSync(join(run.reportDir, 'conformance.json'), 'utf8')) as Interrupted['report'];
    return { run, report, stopMs: Math.round(run.ms - signalled) };
  }

  const expectInterruptedReports = ({ run, report, stopMs }: Awaited<ReturnType<typeof interruptWhen>>) => {
    expect(run.code, run.out.slice(-3000)).toBe(EXIT.interrupted);
    expect(stopMs).toBeLessThanOrEqual(STOP_WITHIN_MS);
    for (const file of [...REPORT_FILES, MANIFEST_FILE]) expect(existsSync(join(run.reportDir, file)), file).toBe(true);
    expect(report.run.interrupted).toBe(true);
    expect(report.verdict).toBe('inconclusive');
    expect(report.requirements.length).toBeGreaterThan(40);
    for (const r of report.requirements)
      expect([r.id, r.outcome, r.message]).toEqual([
        r.id,
        'error',
        expect.stringMatching(/interrupted before the checks started/),
      ]);
    expect(run.out).not.toMatch(/^\s+at \S.*:\d+:\d+\)?$/m);
  };

  test('during the probe of a server that accepts connections and never answers', async () => {
    let connections = 0;
    const base = await listening(createNetServer(() => connections++));
    expectInterruptedReports(
      await interruptWhen({ PETSTORE_BASE_URL: base, PETSTORE_API_KEY: 'k' }, () => connections > 0, 'the probe'),
    );
  });

  test('during the preflight: the probe is answered, the authenticated request never is', async () => {
    let authenticated = 0;
    const base = await listening(
      createHttpServer((req, res) => {
        if (req.headers.authorization) authenticated++;
        else
          res
            .writeHead(401, { 'content-type': 'application/json' })
            .end('{"code":"unauthorized","message":"no key","status":401}');
      }),
    );
    expectInterruptedReports(
      await interruptWhen({ PETSTORE_BASE_URL: base, PETSTORE_API_KEY: 'k' }, () => authenticated > 0, 'the preflight'),
    );
  });

  // The step summary is a FIFO: appending conformance.md to it blocks until the test reads it, so
  // the signal surely arrives while the reports are being written.
  test.each([
    [
      'a run that could not start (wrong key: not tested)',
      'not-tested',
      async () => ({ ...targetEnv(await started(referenceServer())), PETSTORE_API_KEY: 'wrong' }),
    ],
    ['a run whose checks all finished', 'conformant', async () => targetEnv(await started(referenceServer()))],
  ] as const)('while the reports of %s are written: every file whole, exit 130', async (_what, verdict, target) => {
    const dir = tempDir('fifo');
    const fifo = join(dir, 'step-summary');
    execFileSync('mkfifo', [fifo]);
    const reportDir = join(dir, 'reports');
    const run = startBin(['--only', 'listPets.ok', '--report-dir', reportDir], {
      ...(await target()),
      GITHUB_STEP_SUMMARY: fifo,
    });
    // The manifest is written last before the step summary: then the run blocks on the FIFO.
    await until(() => existsSync(join(reportDir, MANIFEST_FILE)), 'the reports');
    run.child.kill('SIGINT');
    await sleep(200);
    const reading = performance.now();
    const summary = await new Promise<string>((resolve, reject) => {
      let text = '';
      createReadStream(fifo, 'utf8')
        .on('data', (d) => (text += d))
        .on('end', () => resolve(text))
        .on('error', reject);
    });
    const done = await run.done;
    expect(done.code, done.out.slice(-3000)).toBe(EXIT.interrupted);
    expect(performance.now() - reading).toBeLessThanOrEqual(STOP_WITHIN_MS);
    const md = readFileSync(join(reportDir, 'conformance.md'), 'utf8');
    expect(summary).toBe(`${md}\n`);
    for (const file of [...REPORT_FILES, MANIFEST_FILE]) expect(existsSync(join(reportDir, file)), file).toBe(true);
    // Every check had finished (or none could start): nothing was cut short, and the report says what was decided.
    const report = JSON.parse(readFileSync(join(reportDir, 'conformance.json'), 'utf8')) as Interrupted['report'];
    expect(report.verdict).toBe(verdict);
  });
});

async function started(server: Promise<TestServer>): Promise<TestServer> {
  const s = await server;
  servers.push(s);
  return s;
}
