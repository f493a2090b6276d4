// The reports as their readers get them: the real command, run against a broken server and
// against the reference server, each writing every file; conformance.json valid against the
// published schema; the HTML opened in real headless Chromium (the one @sparticuz/chromium
// bundles: browser.ts); and not one byte of the run, written or printed, holding the API key.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createReferenceHandler, type Handler, type ServerRequest } from '../../src/reference-server/handler.js';
import { serve, type RunningServer } from '../../src/reference-server/http.js';
import { MANIFEST_FILE, REPORT_FILES } from '../../src/report/reporter.js';
import { sha256 } from '../../src/report/manifest.js';
import type { Results } from '../../src/report/results.js';
import { launchBundledChromium, mappedLibraries, pageProblems, processesIn } from './browser.js';
import { compose, isOp, mapResponse, authenticated } from '../harness/faults-kit.js';
import { root, runBin } from '../net-kit.js';

const addFormats = ajvFormats.default as unknown as typeof ajvFormats.default.default;

/** Keys nobody could mistake for anything else, so a search for them cannot miss or misfire. */
const BROKEN_KEY = `LEAK-CANARY-broken-${randomBytes(12).toString('hex')}`;
const REFERENCE_KEY = `LEAK-CANARY-reference-${randomBytes(12).toString('hex')}`;

/** Header-safe text only: what a careless server could echo without breaking its own response. */
const echoable = (v: string | undefined) => (v !== undefined && /^[\x20-\x7e]*$/.test(v) ? v : '');

/**
 * Breaks a MUST rule (listPets answers without a key: auth.missing-key) and two SHOULD rules
 * (401 without WWW-Authenticate: auth.challenge; getPet without Deprecation:
 * getPet.deprecation-header), and baits a leak: every response echoes the Authorization header
 * it got, in a header and in the message of every error body.
 */
const dropped = (req: ServerRequest) =>
  isOp('getPet')(req) ? ['www-authenticate', 'deprecation'] : ['www-authenticate'];
const broken = compose(
  mapResponse((res, req) => {
    const auth = echoable(req.headers.authorization);
    const headers: Record<string, string> = { ...res.headers, 'x-echo-authorization': auth };
    for (const name of Object.keys(headers)) if (dropped(req).includes(name.toLowerCase())) delete headers[name];
    let body = res.body;
    if (res.status >= 400 && body) {
      const error = JSON.parse(body) as { message?: string };
      body = JSON.stringify({ ...error, message: `${error.message ?? ''} (you sent ${auth})` });
    }
    return { ...res, headers, body };
  }),
  (inner, apiKey) => (req) =>
    inner(isOp('listPets')(req) && !req.headers.authorization ? authenticated(req, apiKey) : req),
);

interface Run {
  code: number | null;
  out: string;
  dir: string;
  summary: string;
  ms: number;
}

/** The command in a child process, as a user runs it, writing into `dir` (kept for a look afterwards). */
async function runCli(env: Record<string, string>, dir: string): Promise<Run> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const summary = join(dir, 'step-summary.md');
  // Run from `dir`, so a developer's .env in the project cannot steer the verdicts asserted here.
  const { code, out, ms } = await runBin([], {
    cwd: dir,
    env: { PETSTORE_REPORT_DIR: join(dir, 'reports'), GITHUB_STEP_SUMMARY: summary, ...env },
  });
  writeFileSync(join(dir, 'terminal.txt'), out);
  return { code, out, dir: join(dir, 'reports'), summary, ms };
}

const servers: RunningServer[] = [];
/** Inside reports/ (never committed), so the reports and screenshots can be looked at after the test. */
const outDir = join(root, 'reports', 'self-test');
let brokenRun: Run;
let referenceRun: Run;

async function target(handler: Handler, key: string, name: string): Promise<Run> {
  const server = await serve(handler);
  servers.push(server);
  return runCli(
    { PETSTORE_BASE_URL: `${server.origin}/v1`, PETSTORE_API_KEY: key, PETSTORE_SEED: '20260101' },
    join(outDir, name),
  );
}

beforeAll(async () => {
  [brokenRun, referenceRun] = await Promise.all([
    target(broken(createReferenceHandler({ apiKey: BROKEN_KEY }), BROKEN_KEY), BROKEN_KEY, 'broken'),
    target(createReferenceHandler({ apiKey: REFERENCE_KEY }), REFERENCE_KEY, 'reference'),
  ]);
  console.log(`reports self-test: broken run ${brokenRun.ms} ms, reference run ${referenceRun.ms} ms (concurrently)`);
}, 600_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const read = (run: Run, file: string) => readFileSync(join(run.dir, file), 'utf8');
const results = (run: Run) => JSON.parse(read(run, 'conformance.json')) as Results;
const entry = (run: Run, id: string) => results(run).requirements.find((r) => r.id === id);

const schema = JSON.parse(readFileSync(join(root, 'schemas/conformance-report.schema.json'), 'utf8')) as object;
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validateReport = ajv.compile(schema);

describe.each([
  ['a broken server', () => brokenRun, 1, 'nonconformant'],
  ['the reference server', () => referenceRun, 0, 'conformant'],
] as const)('a run against %s', (_name, run, exitCode, verdict) => {
  test(`exits ${exitCode} with the verdict ${verdict} and writes every report file`, () => {
    expect(run().code, run().out).toBe(exitCode);
    expect(results(run()).verdict, results(run()).verdictReason).toBe(verdict);
    expect(readdirSync(run().dir).sort()).toEqual([...REPORT_FILES, MANIFEST_FILE].sort());
  });

  test('conformance.json validates against schemas/conformance-report.schema.json', () => {
    const valid = validateReport(results(run()));
    expect(validateReport.errors ?? [], JSON.stringify(validateReport.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
  });

  test('the manifest holds the SHA-256 of every report file, of openapi.json and of the suite', () => {
    const manifest = JSON.parse(read(run(), MANIFEST_FILE)) as {
      reports: { file: string; sha256: string }[];
      openapi: { sha256: string };
      suite: { sha256: string; version: string };
    };
    expect(manifest.reports.map((r) => r.file).sort()).toEqual([...REPORT_FILES].sort());
    for (const r of manifest.reports) expect(r.sha256, r.file).toBe(sha256(readFileSync(join(run().dir, r.file))));
    expect(manifest.openapi.sha256).toBe(sha256(readFileSync(join(root, 'schemas/openapi.json'))));
    // The tree may change under a running test (others edit it); the digest's rule is proven below.
    expect(manifest.suite.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  test('the terminal summary names target, seed, verdict and the MUST/SHOULD counts', () => {
    const { out } = run();
    const r = results(run());
    expect(out).toContain(`target   ${r.target.baseUrl}`);
    expect(out).toContain('seed     20260101');
    expect(out).toMatch(new RegExp(`verdict  ${verdict === 'conformant' ? 'CONFORMANT' : 'NOT CONFORMANT'}: `));
    expect(out).toMatch(
      new RegExp(`MUST     ${r.counts.MUST.requirements} requirements: ${r.counts.MUST.passed} passed`),
    );
    expect(out).toMatch(
      new RegExp(`SHOULD   ${r.counts.SHOULD.requirements} requirements: ${r.counts.SHOULD.passed} passed`),
    );
  });

  test('every report says how the run reached the target: the trace, the connections, the protocol, the latency', () => {
    const r = results(run());
    const network = r.run.network as NonNullable<Results['run']['network']>;
    expect(network.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(run().out).toContain(`trace id ${network.traceId}`); // printed at the start
    expect(network.protocol).toBe('HTTP/1.1');
    expect(Object.keys(network.latency)).toEqual(expect.arrayContaining(['listPets', 'createPet', 'getPet']));
    const answers = Object.values(network.latency).reduce((n, l) => n + l.answers, 0);
    expect(answers).toBe(r.run.requests); // every request got an answer, each counted once
    for (const l of Object.values(network.latency)) expect(l.p95Ms).toBeGreaterThanOrEqual(l.medianMs);
    // Connections kept for GETs, and for creates while the server's Keep-Alive promise is fresh
    // (self-tests/hostile/post-connections.test.ts): some opened, fewer than the requests.
    const opened = network.connections?.opened ?? 0;
    expect(opened).toBeGreaterThan(0);
    expect(opened).toBeLessThan(r.run.requests ?? 0);
    for (const file of ['conformance.md', 'conformance.html', 'junit.xml'])
      expect(read(run(), file)).toContain(network.traceId);
    // Each exchange shown as evidence carries its span of the run's trace; the curl line does not.
    const exchanges = r.requirements.flatMap((e) => e.evidence ?? []);
    for (const x of exchanges) {
      expect(x.request.headers.traceparent).toMatch(new RegExp(`^00-${network.traceId}-[0-9a-f]{16}-01$`));
      expect(x.reproduce).not.toContain('traceparent');
    }
    if (verdict === 'nonconformant') expect(exchanges.length).toBeGreaterThan(0);
  });

  test('the ledger lists, digit for digit, every pet the run created', () => {
    const ledger = JSON.parse(read(run(), 'created-pets.json')) as { count: number; ids: string[]; runTag: string };
    expect(ledger.count).toBe(ledger.ids.length);
    expect(ledger.count).toBe(results(run()).createdPets.count);
    expect(ledger.count).toBeGreaterThan(0);
    expect(new Set(ledger.ids).size).toBe(ledger.ids.length);
    for (const id of ledger.ids) expect(id).toMatch(/^-?\d+$/);
    expect(ledger.runTag).toMatch(/^pcs-/);
  });
});

describe('a run against a broken server', () => {
  test('reports the MUST violation with its evidence and reproduction, and the SHOULD finding as a warning', () => {
    const missing = entry(brokenRun, 'auth.missing-key');
    expect(missing?.outcome).toBe('failed');
    expect(missing?.message).toMatch(/GET \/v1\/pets/);
    expect(missing?.evidence?.[0]?.response?.status).toBe(200);
    expect(missing?.reproduce).toMatch(/^curl .*\/v1\/pets/);
    expect(entry(brokenRun, 'auth.challenge')?.outcome).toBe('failed');
    expect(results(brokenRun).verdictReason).toContain('auth.missing-key');
    expect(results(brokenRun).verdictReason).not.toContain('auth.challenge');

    expect(brokenRun.out).toMatch(/✘ auth\.missing-key .*GET \/v1\/pets/);
    expect(brokenRun.out).toMatch(/⚠ auth\.challenge \(SHOULD, warning\)/);
    const junit = read(brokenRun, 'junit.xml');
    expect(junit).toMatch(/<testcase name="auth\.missing-key [^"]*"[^>]*>[\s\S]*?<failure message="GET \/v1\/pets/);
    expect(junit).toMatch(/<testcase name="auth\.challenge [\s\S]*?<system-out>WARNING \(SHOULD not met\)/);
  });

  test('conformance.md says it in PR-comment size, and lands in $GITHUB_STEP_SUMMARY', () => {
    const md = read(brokenRun, 'conformance.md');
    expect(md).toMatch(/^## ❌ Pet Store conformance: Not conformant/);
    expect(md).toMatch(/### Violations \(MUST\)\n\n- `auth\.missing-key`/);
    expect(md).toMatch(/### Warnings \(SHOULD, do not fail the run\)\n\n(- .*\n)*- `auth\.challenge`/);
    expect(md.split('\n').length).toBeLessThan(80);
    expect(readFileSync(brokenRun.summary, 'utf8')).toContain(md);
  });

  test('not one byte written or printed holds the API key; the reproductions say $PETSTORE_API_KEY', () => {
    for (const [run, key] of [
      [brokenRun, BROKEN_KEY],
      [referenceRun, REFERENCE_KEY],
    ] as const) {
      const forms = [key, Buffer.from(key).toString('base64'), encodeURIComponent(key)];
      const outputs: [string, Buffer][] = [
        ['the terminal', Buffer.from(run.out)],
        ['$GITHUB_STEP_SUMMARY', readFileSync(run.summary)],
        ...readdirSync(run.dir).map((f) => [f, readFileSync(join(run.dir, f))] as [string, Buffer]),
      ];
      for (const [where, bytes] of outputs)
        for (const form of forms) expect(bytes.includes(form), `${form} in ${where}`).toBe(false);
    }
    // The bait worked: the broken server echoed the key, and the report shows it redacted.
    const deprecation = entry(brokenRun, 'getPet.deprecation-header');
    expect(deprecation?.outcome).toBe('failed');
    expect(deprecation?.evidence?.[0]?.response?.headers['x-echo-authorization']).toBe('Bearer $PETSTORE_API_KEY');
    expect(deprecation?.reproduce).toContain(`-H "authorization: Bearer $PETSTORE_API_KEY"`);
  });
});

describe('conformance.html in headless Chromium (the browser bundled by @sparticuz/chromium)', () => {
  test('shows the verdict and a failed requirement, expands it on click, logs no error', async () => {
    const started = performance.now();
    // Never skipped: without the bundled browser this fails, saying why in one line.
    const bundled = await launchBundledChromium();
    try {
      // The browser is the package's, not one the machine happens to have: its processes run the
      // unpacked binary, the Chromium major is the package's, and it maps no library from the
      // system that Node itself does not map (the glibc family).
      expect(bundled.browser.version().split('.')[0]).toBe(bundled.packageVersion.split('.')[0]);
      const pids = processesIn(bundled.dir);
      expect(pids.length, `no process runs ${bundled.executablePath}`).toBeGreaterThan(0);
      const nodeOwn = new Set([...mappedLibraries('self')].map((l) => basename(l)));
      const foreign = pids
        .flatMap((pid) => [...mappedLibraries(pid)])
        .filter((l) => !l.startsWith(`${bundled.dir}/`) && !nodeOwn.has(basename(l)));
      expect([...new Set(foreign)], 'system libraries the bundled browser needs beyond what Node loads').toEqual([]);

      const page = await bundled.browser.newPage({ viewport: { width: 1200, height: 900 } });
      const problems = pageProblems(page);
      await page.goto(`file://${join(brokenRun.dir, 'conformance.html')}`);

      await expect.poll(() => page.locator('#level').textContent()).toBe('Not conformant');
      expect(await page.locator('#level').isVisible()).toBe(true);
      const row = page.locator('details[id="req-auth.missing-key"]');
      expect(await row.locator('summary').isVisible()).toBe(true);
      expect(await row.locator('summary').textContent()).toContain('auth.missing-key');
      const curl = row.locator('pre.curl').first();
      expect(await curl.isVisible()).toBe(false);
      await page.screenshot({ path: join(brokenRun.dir, 'conformance.png'), fullPage: false });
      await row.locator('summary').click();
      expect(await row.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
      expect(await curl.isVisible()).toBe(true);
      expect(await curl.textContent()).toMatch(/^curl .*\/v1\/pets/);
      await row.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(brokenRun.dir, 'conformance-expanded.png'), fullPage: true });
      expect(problems).toEqual([]);
      console.log(
        `reports self-test: browser check ${Math.round(performance.now() - started)} ms; screenshots in ${brokenRun.dir}`,
      );
    } finally {
      await bundled.close();
    }
    // A hang guard: some 60 times an honest run beside two busy loops (its time is printed above),
    // 30 s at most a step.
  }, 600_000);
});
