// --baseline: known deviations, so a release gate fails on regressions only. The harness runs the
// auth checks in-process against broken servers; the results tree is built as a real run builds
// it, written as conformance.json, and read back as the baseline of the next run. One spawned run
// proves the command's exit code, its reports and its manifest.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { BaselineError, loadBaseline, schemaValidators } from '../../src/report/baseline.js';
import { EXIT, main } from '../../src/commands/cli.js';
import { createReferenceHandler } from '../../src/reference-server/handler.js';
import { serve } from '../../src/reference-server/http.js';
import { renderHtml } from '../../src/report/html.js';
import { reportView } from '../../src/report/view.js';
import { renderJunit } from '../../src/report/junit.js';
import { sha256 } from '../../src/report/manifest.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { type Results } from '../../src/report/results.js';
import { gateOf, staleEntries } from '../../src/report/verdict.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { catalogue } from '../../tests/catalogue.js';
import { runCatalogueAgainst, type HarnessRun } from '../harness/harness.js';
import { resultsOf } from '../harness/results-of.js';
import { faults } from '../harness/faults/index.js';
import type { Wrap } from '../harness/faults-kit.js';
import { CHILD_TIMEOUT, runBin, tempDir } from '../net-kit.js';

const AUTH = catalogue.filter((r) => r.id.startsWith('auth.')).map((r) => r.id);
const fault = (name: string) => {
  const f = faults.find((x) => x.name === name);
  if (!f) throw new Error(`no fault ${name}`);
  return f;
};
/** Breaks auth.missing-key (MUST). */
const NO_AUTH = fault('list-without-auth');
/** Breaks auth.wrong-key (MUST). */
const ANY_TOKEN = fault('list-accepts-any-token');
const correct: Wrap = (inner) => inner;

const dir = tempDir('baseline');
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
};
const ids = catalogue.map((r) => r.id);
const validReport = (r: Results) => {
  const { report } = schemaValidators();
  expect(report(JSON.parse(JSON.stringify(r))), JSON.stringify(report.errors)).toBe(true);
};

describe('a run with its own report as baseline', () => {
  let first: Results;
  let baselinePath: string;
  const runs: Record<string, HarnessRun> = {};
  test('the runs (auth checks against one fault, another fault, a correct server)', async () => {
    [runs.noAuth, runs.anyToken, runs.correct] = await Promise.all([
      runCatalogueAgainst(NO_AUTH.wrap, { only: AUTH }),
      runCatalogueAgainst(ANY_TOKEN.wrap, { only: AUTH }),
      runCatalogueAgainst(correct, { only: AUTH }),
    ]);
    first = resultsOf(runs.noAuth as HarnessRun);
    expect(first.requirements.find((e) => e.id === 'auth.missing-key')?.outcome).toBe('failed');
    baselinePath = file('first.json', first);
  });

  test('against the same fault: the fault is known, the gate passes (exit 0), every report shows it apart', () => {
    const baseline = loadBaseline(baselinePath, { ids });
    expect(baseline.kind).toBe('report');
    expect(baseline.entries.map((e) => e.id)).toContain('auth.missing-key');
    const again = resultsOf(runs.noAuth as HarnessRun, { baseline });
    validReport(again);
    const entry = again.requirements.find((e) => e.id === 'auth.missing-key');
    expect(entry?.outcome).toBe('failed'); // its own outcome stays recorded
    expect(entry?.baseline).toMatchObject({ status: 'known', entry: 'auth.missing-key' });
    expect(entry?.baseline?.reason).toMatch(/^failed in the run of 2026-06-01: /);
    expect(gateOf(again)).toMatchObject({ passed: true, regressions: [] });
    expect(again.run.baseline).toMatchObject({
      path: baselinePath,
      sha256: sha256(readFileSync(baselinePath)),
      kind: 'report',
    });
    expect(renderTerminal(reportView(again))).toMatch(/≈ auth\.missing-key \(known MUST failure, baseline\)/);
    expect(renderTerminal(reportView(again))).toMatch(/baseline .*gate passed: no regression against the baseline/);
    expect(renderTerminal(reportView(again))).not.toMatch(/✘ auth\.missing-key/);
    const markdown = renderMarkdown(reportView(again));
    expect(markdown).toMatch(
      /#### Known deviations \(\d+; still run, not regressions\)\n\n(- .*\n)*- `auth\.missing-key`/,
    );
    expect(markdown).not.toMatch(/### Violations/);
    expect(renderHtml(reportView(again))).toMatch(
      /<span class="badge b-known">known<\/span>\s*<span class="rid">auth\.missing-key/,
    );
    const junit = renderJunit(again);
    expect(junit).toMatch(/<testsuites [^>]* failures="0" errors="0"/);
    expect(junit).toMatch(/name="baseline" value="known: failed in the run/);
    expect(junit).toContain('KNOWN DEVIATION');
    // The service is still what it is: the verdict is not whitewashed.
    expect(again.verdict).toBe('nonconformant');
  });

  test('against another fault with the same baseline: a regression, the gate fails (exit 1)', () => {
    const other = resultsOf(runs.anyToken as HarnessRun, { baseline: loadBaseline(baselinePath, { ids }) });
    const gate = gateOf(other);
    expect(gate.passed).toBe(false);
    expect(gate.regressions.map((e) => e.id)).toContain('auth.wrong-key');
    expect(gate.reason).toMatch(/regressions? \(not in the baseline\): .*auth\.wrong-key/);
    expect(renderTerminal(reportView(other))).toMatch(/✘ auth\.wrong-key/);
    expect(renderTerminal(reportView(other))).toMatch(/gate FAILED/);
  });

  test('against a correct server: an entry of an earlier report is fixed, a warning (exit 0), failing with --strict (exit 1)', () => {
    const baseline = loadBaseline(baselinePath, { ids });
    const fixed = resultsOf(runs.correct as HarnessRun, { baseline });
    validReport(fixed);
    expect(fixed.requirements.find((e) => e.id === 'auth.missing-key')?.baseline?.status).toBe('fixed');
    expect(gateOf(fixed)).toMatchObject({ passed: true });
    expect(gateOf(fixed).reason).toMatch(
      /fixed, all (it|they) cover passing \(fails with --baseline-strict\): remove (.*, )?auth\.missing-key(, .*)? from the baseline/,
    );
    expect(renderTerminal(reportView(fixed))).toMatch(/⚠ auth\.missing-key \(fixed: remove it from the baseline\)/);
    expect(renderMarkdown(reportView(fixed))).toMatch(
      /#### Fixed: remove them from the baseline \(\d+\)\n\n(- .*\n)*- `auth\.missing-key`/,
    );
    expect(renderJunit(fixed)).toContain('FIXED: remove auth.missing-key from the baseline');
    expect(renderHtml(reportView(fixed))).toContain('Fixed: remove it from the baseline');
    expect(gateOf(resultsOf(runs.correct as HarnessRun, { baseline, strict: true })).passed).toBe(false);
  });

  test('an expired entry counts as not in the baseline', () => {
    const path = file('expired.json', {
      known: [{ id: 'auth.missing-key', reason: 'fix scheduled', link: 'https://example.com/1', until: '2026-05-31' }],
    });
    const before = loadBaseline(path, { ids, now: new Date('2026-05-31T23:00:00Z') });
    expect(
      gateOf(resultsOf(runs.noAuth as HarnessRun, { baseline: before })).regressions.map((e) => e.id),
    ).not.toContain('auth.missing-key');
    const after = loadBaseline(path, { ids, now: new Date('2026-06-01T00:00:01Z') });
    expect(after.entries).toEqual([]);
    const results = resultsOf(runs.noAuth as HarnessRun, { baseline: after });
    expect(gateOf(results).regressions.map((e) => e.id)).toContain('auth.missing-key');
    expect(results.run.baseline?.expired).toEqual([
      { id: 'auth.missing-key', reason: 'fix scheduled', link: 'https://example.com/1', until: '2026-05-31' },
    ]);
    expect(renderTerminal(reportView(results))).toMatch(/baseline entry auth\.missing-key expired on 2026-05-31/);
  });

  test('a hand-written entry by glob carries its reason and link into the reports', () => {
    const path = file('glob.json', {
      known: [
        {
          id: 'auth.missing-*',
          reason: 'gateway lets anonymous reads through',
          link: 'https://tracker.example.com/PET-7',
        },
      ],
    });
    const results = resultsOf(runs.noAuth as HarnessRun, { baseline: loadBaseline(path, { ids }) });
    expect(results.requirements.find((e) => e.id === 'auth.missing-key')?.baseline).toEqual({
      status: 'known',
      entry: 'auth.missing-*',
      reason: 'gateway lets anonymous reads through',
      link: 'https://tracker.example.com/PET-7',
    });
    expect(renderMarkdown(reportView(results))).toContain(
      'gateway lets anonymous reads through (https://tracker.example.com/PET-7)',
    );
  });

  test('--baseline-strict: an entry whose requirements all pass, or that expired, fails the gate; a glob still covering a failure does not', () => {
    const one = file('stale.json', {
      known: [{ id: 'auth.missing-key', reason: 'anonymous reads', link: 'https://tracker.example.com/PET-7' }],
    });
    const loaded = loadBaseline(one, { ids });
    const stale = resultsOf(runs.correct as HarnessRun, { baseline: loaded });
    expect(staleEntries(stale)).toEqual(['auth.missing-key']);
    expect(gateOf(stale).passed).toBe(true);
    const strict = resultsOf(runs.correct as HarnessRun, { baseline: { ...loaded, strict: true } });
    expect(strict.run.baseline?.strict).toBe(true);
    expect(gateOf(strict).passed).toBe(false);
    expect(gateOf(strict).reason).toMatch(
      /1 baseline entry fixed, all it covers passing: remove auth\.missing-key from the baseline/,
    );
    const old = file('old.json', {
      known: [{ id: 'auth.missing-key', reason: 'anonymous reads', until: '2026-01-31' }],
    });
    const expired = loadBaseline(old, { ids, now: new Date('2026-06-01T00:00:00Z') });
    expect(gateOf(resultsOf(runs.correct as HarnessRun, { baseline: expired })).passed).toBe(true);
    const gate = gateOf(resultsOf(runs.correct as HarnessRun, { baseline: { ...expired, strict: true } }));
    expect(gate).toMatchObject({ passed: false });
    expect(gate.reason).toContain('1 baseline entry expired (--baseline-strict): auth.missing-key');
    const glob = file('glob-partly.json', {
      known: [{ id: 'auth.*', reason: 'the gateway', link: 'https://tracker.example.com/PET-8' }],
    });
    const partly = resultsOf(runs.noAuth as HarnessRun, { baseline: loadBaseline(glob, { ids }) });
    expect(partly.requirements.some((e) => e.baseline?.status === 'fixed')).toBe(true);
    expect(staleEntries(partly)).toEqual([]);
    expect(gateOf(partly).passed).toBe(true);
  });
});

describe('a baseline the run cannot use is exit 2, in one line, before anything is sent', () => {
  const cases: [what: string, content: string | object, message: RegExp][] = [
    [
      'an id that names no requirement',
      { known: [{ id: 'auth.no-such-rule', reason: 'x', link: 'https://example.com/1' }] },
      /"auth\.no-such-rule" matches no requirement id or area/,
    ],
    [
      'a glob that matches nothing',
      { known: [{ id: 'nothing.*', reason: 'x', link: 'https://example.com/1' }] },
      /"nothing\.\*" matches no requirement/,
    ],
    [
      'an entry without a reason',
      { known: [{ id: 'auth.challenge', link: 'https://example.com/1' }] },
      /not a valid baseline .*: \/known\/0 must have required property 'reason'/,
    ],
    [
      'a date that is no date',
      { known: [{ id: 'auth.challenge', reason: 'x', link: 'https://example.com/1', until: 'soon' }] },
      /\/known\/0\/until must match format "date"/,
    ],
    [
      'a field the format does not have',
      { known: [{ id: 'auth.challenge', reason: 'x', link: 'https://example.com/1', owner: 'me' }] },
      /must NOT have additional properties \(owner\)/,
    ],
    ['a file that is not JSON', '{ known: ', /not JSON: /],
    [
      'a conformance.json that is not valid',
      { format: 'petstore-conformance/report', formatVersion: '1.3.0' },
      /not a valid conformance\.json: /,
    ],
  ];
  test.each(cases)('%s', (_what, content, message) => {
    expect(() => loadBaseline(file('bad.json', content), { ids })).toThrow(BaselineError);
    expect(() => loadBaseline(file('bad.json', content), { ids })).toThrow(message);
  });

  test('the command: a missing file and an unknown id each give one line and exit 2', async () => {
    const errors: string[] = [];
    const spy = (line: unknown) => void errors.push(String(line));
    const original = console.error;
    console.error = spy;
    try {
      const env = { PETSTORE_BASELINE: join(dir, 'missing.json') };
      expect(await main([], env)).toBe(EXIT.usage);
      expect(
        await main(
          [
            '--baseline',
            file('unknown.json', { known: [{ id: 'auth.nope', reason: 'x', link: 'https://example.com/1' }] }),
          ],
          {},
        ),
      ).toBe(EXIT.usage);
    } finally {
      console.error = original;
    }
    expect(errors).toEqual([
      `petstore-conformance: baseline ${join(dir, 'missing.json')}: no such file`,
      `petstore-conformance: baseline ${join(dir, 'unknown.json')}: "auth.nope" matches no requirement id or area (see --list)`,
    ]);
  });
});

describe('the command with --baseline', CHILD_TIMEOUT, () => {
  const servers: { close(): Promise<void> }[] = [];
  afterAll(async () => Promise.all(servers.map((s) => s.close())));

  test('exits 0 on a known MUST failure, records the baseline in the manifest and shows it as known', async () => {
    const apiKey = 'baseline-test-key';
    const server = await serve(NO_AUTH.wrap(createReferenceHandler({ apiKey, basePath: '/v1' }), apiKey));
    servers.push(server);
    const cwd = tempDir('baseline-cli');
    mkdirSync(join(cwd, 'reports'), { recursive: true });
    const path = join(cwd, 'known.json');
    writeFileSync(
      path,
      JSON.stringify({
        known: [
          {
            id: 'auth.missing-key',
            reason: 'anonymous reads',
            link: 'https://tracker.example.com/PET-7',
            until: '2999-12-31',
          },
        ],
      }),
    );
    const env = {
      PETSTORE_BASE_URL: `${server.origin}/v1`,
      PETSTORE_API_KEY: apiKey,
      PETSTORE_REPORT_DIR: join(cwd, 'reports'),
      PETSTORE_SEED: '7',
    };
    const run = await runBin(['--only', 'auth.missing-key', '--baseline', path], { cwd, env });
    expect(run.code, run.out).toBe(EXIT.conformant);
    expect(run.stdout).toMatch(
      /≈ auth\.missing-key \(known MUST failure, baseline\) anonymous reads \(https:\/\/tracker\.example\.com\/PET-7\)/,
    );
    const manifest = JSON.parse(readFileSync(join(cwd, 'reports', 'manifest.json'), 'utf8')) as { baseline?: unknown };
    expect(manifest.baseline).toEqual({ path, sha256: sha256(readFileSync(path)) });
    const report = JSON.parse(readFileSync(join(cwd, 'reports', 'conformance.json'), 'utf8')) as Results;
    validReport(report);
    expect(report.requirements[0]).toMatchObject({
      id: 'auth.missing-key',
      outcome: 'failed',
      baseline: { status: 'known' },
    });
  });
});
